/**
 * The content layer: the body language of Waymark, pure (no store, services, MCP or HTTP). Services import
 * from here only.
 */
export type {
  BlockNode,
  CellAlign,
  CitationNode,
  CodeBlockNode,
  ConnectionCondition,
  ConnectionNode,
  ConnectionParams,
  CredentialNode,
  ElementItem,
  ElementNode,
  ImageNode,
  InlineNode,
  InlineElementNode,
  LinkNode,
  ListItemNode,
  ListNode,
  SlateBody,
  SlateNode,
  TableNode,
  TextBlock,
  TextLeaf,
} from './slate.js';
export { walk, textOf, isText } from './slate.js';

export { markdownToBody, type ConvertOptions, type ConvertResult } from './markdown/convert.js';
export { bodyToMarkdown } from './markdown/render.js';
export { describeBodySyntax, type SyntaxEntry } from './constructs/index.js';
export { describeSlateModel, type SlateModel } from './slate-model.js';
export { slateToBody, type SlateInputOptions } from './slate-input.js';
export { indexBody, type BodyIndex } from './body-index.js';
export { applyElementEdits } from './edits.js';
export { appendConnection, removeConnections } from './connections.js';
export { whenShape as connectionConditionShape } from './constructs/bit-connection.js';
export { assertConnectionCount, checkNamedConnection, connectionNotFound } from './connection-rules.js';
export { validateElementEntries, type ElementEntry, type ItemEntry } from './entries.js';
export {
  nodeInventory,
  listElements,
  collectCitations,
  collectConnections,
  bodyText,
  hasInteractiveElements,
  type InventoryEntry,
  type ListedElement,
} from './inspect.js';
export { checkStepAnswer, type StepAnswer, type StepAnswerResult } from './answers.js';
export { bodyByteLength, assertBodySize, assertJsonSize } from './size.js';
export { assertTopLevelFloor, bodyTooLarge, jsonSizeAtLeast, textLongerThan } from './budget.js';
export { assertSafeUrl, isSafeUrl, SAFE_SCHEMES } from './url.js';

export {
  ELEMENTS,
  ELEMENT_TYPES,
  allowedProps,
  answeredByItems,
  choiceList,
  elementDefinition,
  elementTypeForStep,
  isElementType,
  validateElementProps,
  type ElementDefinition,
  type ElementType,
} from './elements/index.js';
export { describeElement, describeElements, type ElementDescription } from './elements/describe.js';
export { formQuestions, type FormSource } from './elements/form-questions.js';
export { TARGET_NAME_PATTERN, type TargetNames } from './targets.js';
