/** Links, images, autolinks and email addresses (link.ts): markdown, its Slate, and the canonical markdown printed back. */
import type { ConstructFixture } from '../test-support/construct-fixture.js';

export const linkFixtures: ConstructFixture[] = [
  {
    name: "link and image",
    markdown: "[site](https://example.com \"Home\") and ![logo](https://example.com/l.png)\n",
    slate: [
      {
        "type": "p",
        "children": [
          {
            "type": "a",
            "id": "00000000-0000-4000-8000-000000000001",
            "url": "https://example.com",
            "title": "Home",
            "children": [
              {
                "text": "site"
              }
            ]
          },
          {
            "text": " and "
          },
          {
            "type": "img",
            "id": "00000000-0000-4000-8000-000000000002",
            "url": "https://example.com/l.png",
            "alt": "logo",
            "children": [
              {
                "text": ""
              }
            ]
          }
        ]
      }
    ],
    canonical: "[site](https://example.com \"waymark-node:00000000-0000-4000-8000-000000000001 Home\") and ![logo](https://example.com/l.png \"waymark-node:00000000-0000-4000-8000-000000000002\")\n",
  },
  {
    name: "autolink and email",
    markdown: "<https://example.com> <mail@example.com>\n",
    slate: [
      {
        "type": "p",
        "children": [
          {
            "type": "a",
            "id": "00000000-0000-4000-8000-000000000001",
            "url": "https://example.com",
            "children": [
              {
                "text": "https://example.com"
              }
            ]
          },
          {
            "text": " "
          },
          {
            "type": "a",
            "id": "00000000-0000-4000-8000-000000000002",
            "url": "mailto:mail@example.com",
            "children": [
              {
                "text": "mail@example.com"
              }
            ]
          }
        ]
      }
    ],
    canonical: "[https://example.com](https://example.com \"waymark-node:00000000-0000-4000-8000-000000000001\") [mail@example.com](mailto:mail@example.com \"waymark-node:00000000-0000-4000-8000-000000000002\")\n",
  },
];
