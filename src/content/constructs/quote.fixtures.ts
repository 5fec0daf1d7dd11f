/** Blockquotes (quote.ts): markdown, its Slate, and the canonical markdown printed back. */
import type { ConstructFixture } from '../test-support/construct-fixture.js';

export const quoteFixtures: ConstructFixture[] = [
  {
    name: "blockquote",
    markdown: "> quoted *text*\n>\n> - item\n",
    slate: [
      {
        "type": "blockquote",
        "children": [
          {
            "type": "p",
            "children": [
              {
                "text": "quoted "
              },
              {
                "text": "text",
                "italic": true
              }
            ]
          },
          {
            "type": "ul",
            "children": [
              {
                "type": "li",
                "children": [
                  {
                    "type": "lic",
                    "children": [
                      {
                        "text": "item"
                      }
                    ]
                  }
                ]
              }
            ]
          }
        ]
      }
    ],
    canonical: "> quoted _text_\n>\n> - item\n",
  },
];
