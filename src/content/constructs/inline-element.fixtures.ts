/** Inline elements (inline-element.ts): markdown, its Slate, and the canonical markdown printed back. */
import type { ConstructFixture } from '../test-support/construct-fixture.js';

export const inlineElementFixtures: ConstructFixture[] = [
  {
    name: "link-inline",
    markdown: "Open [the dashboard](https://example.com/dash \"waymark-node:li\") now.\n",
    elements: [
      {
        "key": "li",
        "type": "link-inline"
      }
    ],
    slate: [
      {
        "type": "p",
        "children": [
          {
            "text": "Open "
          },
          {
            "type": "link-inline",
            "id": "00000000-0000-4000-8000-000000000001",
            "props": {
              "url": "https://example.com/dash"
            },
            "children": [
              {
                "text": "the dashboard"
              }
            ]
          },
          {
            "text": " now."
          }
        ]
      }
    ],
    canonical: "Open [the dashboard](https://example.com/dash \"waymark-node:00000000-0000-4000-8000-000000000001\") now.\n",
    minted: {"li":"00000000-0000-4000-8000-000000000001"},
  },
];
