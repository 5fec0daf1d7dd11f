/** Code blocks, fenced and indented (code.ts): markdown, its Slate, and the canonical markdown printed back. */
import type { ConstructFixture } from '../test-support/construct-fixture.js';

export const codeFixtures: ConstructFixture[] = [
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
];
