/** Each construct in markdown, its Slate, and the canonical markdown printed back (constructs.test.ts). */
import type { ElementEntry } from '../index.js';

export interface Construct {
  name: string;
  markdown: string;
  elements?: ElementEntry[];
  slate: unknown[];
  canonical: string;
  minted?: Record<string, string>;
}

export const CONSTRUCTS: Construct[] = [
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
    name: "headings",
    markdown: "# One\n\nTwo\n---\n\n###### Six #\n",
    slate: [
      {
        "type": "h1",
        "children": [
          {
            "text": "One"
          }
        ]
      },
      {
        "type": "h2",
        "children": [
          {
            "text": "Two"
          }
        ]
      },
      {
        "type": "h6",
        "children": [
          {
            "text": "Six"
          }
        ]
      }
    ],
    canonical: "# One\n\n## Two\n\n###### Six\n",
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
  {
    name: "code blocks",
    markdown: "```ts title\nconst a = 1;\n```\n\n    indented\n",
    slate: [
      {
        "type": "code_block",
        "lang": "ts title",
        "children": [
          {
            "type": "code_line",
            "children": [
              {
                "text": "const a = 1;"
              }
            ]
          }
        ]
      },
      {
        "type": "code_block",
        "children": [
          {
            "type": "code_line",
            "children": [
              {
                "text": "indented"
              }
            ]
          }
        ]
      }
    ],
    canonical: "```ts title\nconst a = 1;\n```\n\n```\nindented\n```\n",
  },
  {
    name: "thematic break",
    markdown: "above\n\n---\n\nbelow\n",
    slate: [
      {
        "type": "p",
        "children": [
          {
            "text": "above"
          }
        ]
      },
      {
        "type": "hr",
        "children": [
          {
            "text": ""
          }
        ]
      },
      {
        "type": "p",
        "children": [
          {
            "text": "below"
          }
        ]
      }
    ],
    canonical: "above\n\n***\n\nbelow\n",
  },
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
  {
    name: "citation",
    markdown: "See [[ref:11111111-1111-4111-8111-111111111111|Handbook, p. 3]].\n",
    slate: [
      {
        "type": "p",
        "children": [
          {
            "text": "See "
          },
          {
            "type": "citation",
            "reference_id": "11111111-1111-4111-8111-111111111111",
            "label": "Handbook, p. 3",
            "children": [
              {
                "text": ""
              }
            ]
          },
          {
            "text": "."
          }
        ]
      }
    ],
    canonical: "See [[ref:11111111-1111-4111-8111-111111111111|Handbook, p. 3]].\n",
  },
  {
    name: "credential",
    markdown: "Use [credential: deploy-key](credential:deploy-key \"Push to production\").\n",
    slate: [
      {
        "type": "p",
        "children": [
          {
            "text": "Use "
          },
          {
            "type": "credential",
            "handle": "deploy-key",
            "purpose": "Push to production",
            "children": [
              {
                "text": ""
              }
            ]
          },
          {
            "text": "."
          }
        ]
      }
    ],
    canonical: "Use [credential: deploy-key](credential:deploy-key \"Push to production\").\n",
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
  {
    name: "text-area with label in props",
    markdown: "[text-area](waymark-node:notes) (required)\n",
    elements: [
      {
        "key": "notes",
        "type": "text-area",
        "props": {
          "label": "Notes",
          "required": true,
          "maxLength": "200"
        }
      }
    ],
    slate: [
      {
        "type": "text-area",
        "id": "00000000-0000-4000-8000-000000000001",
        "props": {
          "label": "Notes",
          "required": true,
          "maxLength": "200"
        },
        "children": [
          {
            "text": ""
          }
        ]
      }
    ],
    canonical: "[text-area: Notes](waymark-node:00000000-0000-4000-8000-000000000001) (required)\n",
    minted: {"notes":"00000000-0000-4000-8000-000000000001"},
  },
  {
    name: "check-list",
    markdown: "[check-list: Before you start](waymark-node:cl)\n- [ ] [Wear gloves](waymark-node:g) *(required)*\n- [x] [Open valve](waymark-node:v)\n",
    elements: [
      {
        "key": "cl",
        "type": "check-list",
        "items": [
          {
            "key": "g",
            "required": true
          },
          {
            "key": "v"
          }
        ]
      }
    ],
    slate: [
      {
        "type": "check-list",
        "id": "00000000-0000-4000-8000-000000000001",
        "props": {
          "label": "Before you start"
        },
        "children": [
          {
            "text": ""
          }
        ],
        "items": [
          {
            "id": "00000000-0000-4000-8000-000000000002",
            "text": "Wear gloves",
            "checked": false,
            "required": true
          },
          {
            "id": "00000000-0000-4000-8000-000000000003",
            "text": "Open valve",
            "checked": true,
            "required": false
          }
        ]
      }
    ],
    canonical: "[check-list: Before you start](waymark-node:00000000-0000-4000-8000-000000000001)\n- [ ] [Wear gloves](waymark-node:00000000-0000-4000-8000-000000000002) *(required)*\n- [x] [Open valve](waymark-node:00000000-0000-4000-8000-000000000003)\n",
    minted: {"cl":"00000000-0000-4000-8000-000000000001","g":"00000000-0000-4000-8000-000000000002","v":"00000000-0000-4000-8000-000000000003"},
  },
  {
    name: "radio-button",
    markdown: "[radio-button: Severity](waymark-node:rb)\n- (x) [Low](waymark-node:lo)\n- ( ) [High](waymark-node:hi)\n",
    elements: [
      {
        "key": "rb",
        "type": "radio-button",
        "items": [
          {
            "key": "lo"
          },
          {
            "key": "hi"
          }
        ]
      }
    ],
    slate: [
      {
        "type": "radio-button",
        "id": "00000000-0000-4000-8000-000000000001",
        "props": {
          "label": "Severity"
        },
        "children": [
          {
            "text": ""
          }
        ],
        "items": [
          {
            "id": "00000000-0000-4000-8000-000000000002",
            "checked": true,
            "text": "Low"
          },
          {
            "id": "00000000-0000-4000-8000-000000000003",
            "checked": false,
            "text": "High"
          }
        ]
      }
    ],
    canonical: "[radio-button: Severity](waymark-node:00000000-0000-4000-8000-000000000001)\n- (x) [Low](waymark-node:00000000-0000-4000-8000-000000000002)\n- ( ) [High](waymark-node:00000000-0000-4000-8000-000000000003)\n",
    minted: {"rb":"00000000-0000-4000-8000-000000000001","lo":"00000000-0000-4000-8000-000000000002","hi":"00000000-0000-4000-8000-000000000003"},
  },
  {
    name: "dropdown",
    markdown: "[dropdown: Site](waymark-node:dd)\n- [North](waymark-node:n)\n- [South](waymark-node:s)\n",
    elements: [
      {
        "key": "dd",
        "type": "dropdown",
        "items": [
          {
            "key": "n",
            "value": "N"
          },
          {
            "key": "s",
            "value": "S"
          }
        ]
      }
    ],
    slate: [
      {
        "type": "dropdown",
        "id": "00000000-0000-4000-8000-000000000001",
        "props": {
          "label": "Site"
        },
        "children": [
          {
            "text": ""
          }
        ],
        "items": [
          {
            "id": "00000000-0000-4000-8000-000000000002",
            "name": "North",
            "value": "N"
          },
          {
            "id": "00000000-0000-4000-8000-000000000003",
            "name": "South",
            "value": "S"
          }
        ]
      }
    ],
    canonical: "[dropdown: Site](waymark-node:00000000-0000-4000-8000-000000000001)\n- [North](waymark-node:00000000-0000-4000-8000-000000000002)\n- [South](waymark-node:00000000-0000-4000-8000-000000000003)\n",
    minted: {"dd":"00000000-0000-4000-8000-000000000001","n":"00000000-0000-4000-8000-000000000002","s":"00000000-0000-4000-8000-000000000003"},
  },
  {
    name: "label-less elements",
    markdown: "[iframe](waymark-node:f)\n\n[link-block](waymark-node:lb)\n\n[video-external](waymark-node:v)\n",
    elements: [
      {
        "key": "f",
        "type": "iframe",
        "props": {
          "url": "https://example.com/embed",
          "height": 300
        }
      },
      {
        "key": "lb",
        "type": "link-block",
        "props": {
          "url": "https://example.com"
        }
      },
      {
        "key": "v",
        "type": "video-external",
        "props": {
          "url": "https://example.com/v.mp4"
        }
      }
    ],
    slate: [
      {
        "type": "iframe",
        "id": "00000000-0000-4000-8000-000000000001",
        "props": {
          "url": "https://example.com/embed",
          "height": 300
        },
        "children": [
          {
            "text": ""
          }
        ]
      },
      {
        "type": "link-block",
        "id": "00000000-0000-4000-8000-000000000002",
        "props": {
          "url": "https://example.com"
        },
        "children": [
          {
            "text": ""
          }
        ]
      },
      {
        "type": "video-external",
        "id": "00000000-0000-4000-8000-000000000003",
        "props": {
          "url": "https://example.com/v.mp4"
        },
        "children": [
          {
            "text": ""
          }
        ]
      }
    ],
    canonical: "[iframe](waymark-node:00000000-0000-4000-8000-000000000001)\n\n[link-block](waymark-node:00000000-0000-4000-8000-000000000002)\n\n[video-external](waymark-node:00000000-0000-4000-8000-000000000003)\n",
    minted: {"f":"00000000-0000-4000-8000-000000000001","lb":"00000000-0000-4000-8000-000000000002","v":"00000000-0000-4000-8000-000000000003"},
  },
  {
    name: "date-picker and searchable-field",
    markdown: "[date-picker: When](waymark-node:d)\n\n[searchable-field: Part](waymark-node:p)\n",
    elements: [
      {
        "key": "d",
        "type": "date-picker",
        "props": {
          "picker_type": "datetime-local"
        }
      },
      {
        "key": "p",
        "type": "searchable-field",
        "props": {
          "data": [
            "A-1",
            {
              "value": "B-2"
            }
          ],
          "maxResults": 10
        }
      }
    ],
    slate: [
      {
        "type": "date-picker",
        "id": "00000000-0000-4000-8000-000000000001",
        "props": {
          "picker_type": "datetime-local",
          "label": "When"
        },
        "children": [
          {
            "text": ""
          }
        ]
      },
      {
        "type": "searchable-field",
        "id": "00000000-0000-4000-8000-000000000002",
        "props": {
          "data": [
            "A-1",
            {
              "value": "B-2"
            }
          ],
          "maxResults": 10,
          "label": "Part"
        },
        "children": [
          {
            "text": ""
          }
        ]
      }
    ],
    canonical: "[date-picker: When](waymark-node:00000000-0000-4000-8000-000000000001)\n\n[searchable-field: Part](waymark-node:00000000-0000-4000-8000-000000000002)\n",
    minted: {"d":"00000000-0000-4000-8000-000000000001","p":"00000000-0000-4000-8000-000000000002"},
  },
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
  {
    name: "connections",
    markdown: "[Next step](bit-connection:22222222-2222-4222-8222-222222222222)\n\n[→](bit-connection:22222222-2222-4222-8222-222222222222?preview=0&readingTime=0)\n",
    slate: [
      {
        "type": "bit-connection",
        "id": null,
        "target_bit_id": "22222222-2222-4222-8222-222222222222",
        "label": "Next step",
        "params": {},
        "children": [
          {
            "text": ""
          }
        ]
      },
      {
        "type": "bit-connection",
        "id": null,
        "target_bit_id": "22222222-2222-4222-8222-222222222222",
        "label": null,
        "params": {
          "preview": false,
          "readingTime": false
        },
        "children": [
          {
            "text": ""
          }
        ]
      }
    ],
    canonical: "[Next step](bit-connection:22222222-2222-4222-8222-222222222222)\n\n[→](bit-connection:22222222-2222-4222-8222-222222222222?preview=0&readingTime=0)\n",
  },
];

