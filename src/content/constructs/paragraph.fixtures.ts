/** Prose: marks, hard and soft breaks, and raw HTML kept as text (paragraph.ts): markdown, its Slate, and the canonical markdown printed back. */
import type { ConstructFixture } from '../test-support/construct-fixture.js';

export const paragraphFixtures: ConstructFixture[] = [
  {
    name: "paragraph with marks",
    markdown: "Plain **bold** _italic_ ~~gone~~ `code` and ***both***.\n",
    slate: [
      {
        "type": "p",
        "children": [
          {
            "text": "Plain "
          },
          {
            "text": "bold",
            "bold": true
          },
          {
            "text": " "
          },
          {
            "text": "italic",
            "italic": true
          },
          {
            "text": " "
          },
          {
            "text": "gone",
            "strikethrough": true
          },
          {
            "text": " "
          },
          {
            "text": "code",
            "code": true
          },
          {
            "text": " and "
          },
          {
            "text": "both",
            "bold": true,
            "italic": true
          },
          {
            "text": "."
          }
        ]
      }
    ],
    canonical: "Plain **bold** _italic_ ~~gone~~ `code` and **_both_**.\n",
  },
  {
    name: "hard and soft breaks",
    markdown: "line one\nline two  \nline three\\\nline four\n",
    slate: [
      {
        "type": "p",
        "children": [
          {
            "text": "line one line two\nline three\nline four"
          }
        ]
      }
    ],
    canonical: "line one line two\\\nline three\\\nline four\n",
  },
  {
    name: "raw html stays text",
    markdown: "<div>*hi*</div>\n",
    slate: [
      {
        "type": "p",
        "children": [
          {
            "text": "<div>"
          },
          {
            "text": "hi",
            "italic": true
          },
          {
            "text": "</div>"
          }
        ]
      }
    ],
    canonical: "\\<div>_hi_\\</div>\n",
  },
];
