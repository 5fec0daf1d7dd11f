/** Citations (citation.ts): markdown, its Slate, and the canonical markdown printed back. */
import type { ConstructFixture } from '../test-support/construct-fixture.js';

export const citationFixtures: ConstructFixture[] = [
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
];
