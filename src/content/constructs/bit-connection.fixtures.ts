/** Bit connections (bit-connection.ts): markdown, its Slate, and the canonical markdown printed back. */
import type { ConstructFixture } from '../test-support/construct-fixture.js';

export const bitConnectionFixtures: ConstructFixture[] = [
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
