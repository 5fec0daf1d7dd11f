/** Headings (heading.ts): markdown, its Slate, and the canonical markdown printed back. */
import type { ConstructFixture } from '../test-support/construct-fixture.js';

export const headingFixtures: ConstructFixture[] = [
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
];
