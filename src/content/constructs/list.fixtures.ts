/** Lists, tight, loose and of tasks (list.ts): markdown, its Slate, and the canonical markdown printed back. */
import type { ConstructFixture } from '../test-support/construct-fixture.js';

export const listFixtures: ConstructFixture[] = [
  {
    name: "lists tight and loose",
    markdown: "- a\n- b\n  1. c\n  2. d\n\n3. x\n\n4. y\n",
    slate: [
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
                    "text": "a"
                  }
                ]
              }
            ]
          },
          {
            "type": "li",
            "children": [
              {
                "type": "lic",
                "children": [
                  {
                    "text": "b"
                  }
                ]
              },
              {
                "type": "ol",
                "children": [
                  {
                    "type": "li",
                    "children": [
                      {
                        "type": "lic",
                        "children": [
                          {
                            "text": "c"
                          }
                        ]
                      }
                    ]
                  },
                  {
                    "type": "li",
                    "children": [
                      {
                        "type": "lic",
                        "children": [
                          {
                            "text": "d"
                          }
                        ]
                      }
                    ]
                  }
                ]
              }
            ]
          }
        ]
      },
      {
        "type": "ol",
        "start": 3,
        "children": [
          {
            "type": "li",
            "children": [
              {
                "type": "p",
                "children": [
                  {
                    "text": "x"
                  }
                ]
              }
            ]
          },
          {
            "type": "li",
            "children": [
              {
                "type": "p",
                "children": [
                  {
                    "text": "y"
                  }
                ]
              }
            ]
          }
        ]
      }
    ],
    canonical: "- a\n- b\n  1. c\n  2. d\n\n3. x\n\n4. y\n",
  },
  {
    name: "task list",
    markdown: "- [ ] open\n- [x] done\n",
    slate: [
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
                    "text": "open"
                  }
                ]
              }
            ],
            "checked": false
          },
          {
            "type": "li",
            "children": [
              {
                "type": "lic",
                "children": [
                  {
                    "text": "done"
                  }
                ]
              }
            ],
            "checked": true
          }
        ]
      }
    ],
    canonical: "- [ ] open\n- [x] done\n",
  },
];
