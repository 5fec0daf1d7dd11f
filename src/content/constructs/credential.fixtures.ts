/** Credentials (credential.ts): markdown, its Slate, and the canonical markdown printed back. */
import type { ConstructFixture } from '../test-support/construct-fixture.js';

export const credentialFixtures: ConstructFixture[] = [
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
];
