/** Block elements on their element lines, with their items (element-line.ts): markdown, its Slate, and the canonical markdown printed back. */
import type { ConstructFixture } from '../test-support/construct-fixture.js';

export const elementLineFixtures: ConstructFixture[] = [
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
];
