/** Tables (table.ts): markdown, its Slate, and the canonical markdown printed back. */
import type { ConstructFixture } from '../test-support/construct-fixture.js';

export const tableFixtures: ConstructFixture[] = [
  {
    name: "table",
    markdown: "| a | b | c |\n|:--|:-:|--:|\n| 1 | `x\\|y` | **z** |\n",
    slate: [
      {
        "type": "table",
        "children": [
          {
            "type": "tr",
            "children": [
              {
                "type": "th",
                "children": [
                  {
                    "type": "p",
                    "children": [
                      {
                        "text": "a"
                      }
                    ]
                  }
                ]
              },
              {
                "type": "th",
                "children": [
                  {
                    "type": "p",
                    "children": [
                      {
                        "text": "b"
                      }
                    ]
                  }
                ]
              },
              {
                "type": "th",
                "children": [
                  {
                    "type": "p",
                    "children": [
                      {
                        "text": "c"
                      }
                    ]
                  }
                ]
              }
            ]
          },
          {
            "type": "tr",
            "children": [
              {
                "type": "td",
                "children": [
                  {
                    "type": "p",
                    "children": [
                      {
                        "text": "1"
                      }
                    ]
                  }
                ]
              },
              {
                "type": "td",
                "children": [
                  {
                    "type": "p",
                    "children": [
                      {
                        "text": "x|y",
                        "code": true
                      }
                    ]
                  }
                ]
              },
              {
                "type": "td",
                "children": [
                  {
                    "type": "p",
                    "children": [
                      {
                        "text": "z",
                        "bold": true
                      }
                    ]
                  }
                ]
              }
            ]
          }
        ],
        "align": [
          "left",
          "center",
          "right"
        ]
      }
    ],
    canonical: "| a | b | c |\n| :-- | :-: | --: |\n| 1 | `x\\|y` | **z** |\n",
  },
];
