import type { Tool } from '../tool.js';
import { describePlatformTool } from './describe-platform.js';

/** Every tool the server offers, in the order tools/list shows them. */
export function allTools(): Tool[] {
  return TOOLS;
}

const TOOLS: Tool[] = [describePlatformTool(allTools)];
