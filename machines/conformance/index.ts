/**
 * The fixtures of the official conformance suite (`@modelcontextprotocol/conformance`,
 * requirements 2026-07-28 and 2025-11-25), each a machine in its own file. Served only when asked for:
 * `baton serve --conformance` or `BATON_CONFORMANCE=1` (docs/conformance.md).
 */
import type {
  PromptDefinition,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ToolDefinition,
} from '../../server/engine/index.js';
import { jsonSchema202012Tool } from './json-schema-2020-12-tool.js';
import { staticBinaryResource } from './static-binary-resource.js';
import { staticTextResource } from './static-text-resource.js';
import { templateDataResource } from './template-data-resource.js';
import { watchedResource } from './watched-resource.js';
import { testAudioContent } from './test-audio-content.js';
import { testEmbeddedResource } from './test-embedded-resource.js';
import { testElicitation } from './test-elicitation.js';
import { testElicitationSep1034Defaults } from './test-elicitation-sep1034-defaults.js';
import { testElicitationSep1330Enums } from './test-elicitation-sep1330-enums.js';
import { testErrorHandling } from './test-error-handling.js';
import { testImageContent } from './test-image-content.js';
import { testInputRequiredResultCapabilities } from './test-input-required-result-capabilities.js';
import { testInputRequiredResultElicitation } from './test-input-required-result-elicitation.js';
import { testInputRequiredResultListRoots } from './test-input-required-result-list-roots.js';
import { testInputRequiredResultMultiRound } from './test-input-required-result-multi-round.js';
import { testInputRequiredResultMultipleInputs } from './test-input-required-result-multiple-inputs.js';
import { testInputRequiredResultPrompt } from './test-input-required-result-prompt.js';
import { testInputRequiredResultRequestState } from './test-input-required-result-request-state.js';
import { testInputRequiredResultSampling } from './test-input-required-result-sampling.js';
import { testInputRequiredResultTamperedState } from './test-input-required-result-tampered-state.js';
import { testLoggingTool } from './test-logging-tool.js';
import { testMissingCapability } from './test-missing-capability.js';
import { testMultipleContentTypes } from './test-multiple-content-types.js';
import { testPromptWithArguments } from './test-prompt-with-arguments.js';
import { testPromptWithEmbeddedResource } from './test-prompt-with-embedded-resource.js';
import { testPromptWithImage } from './test-prompt-with-image.js';
import { testSampling } from './test-sampling.js';
import { testSimplePrompt } from './test-simple-prompt.js';
import { testSimpleText } from './test-simple-text.js';
import { testStreamingElicitation } from './test-streaming-elicitation.js';
import { testToolWithLogging } from './test-tool-with-logging.js';
import { testToolWithProgress } from './test-tool-with-progress.js';
import { testXMcpHeader } from './test-x-mcp-header.js';
import {
  confirmDelete,
  failingJob,
  greet,
  multiInput,
  protocolErrorJob,
  slowCompute,
  testToolWithTask,
} from './tasks/index.js';

export interface Fixtures {
  tools: ToolDefinition[];
  prompts: PromptDefinition[];
  resources: Array<ResourceDefinition | ResourceTemplateDefinition>;
}

export function conformanceFixtures(): Fixtures {
  return {
    tools: [
      testSimpleText,
      testImageContent,
      testAudioContent,
      testEmbeddedResource,
      testMultipleContentTypes,
      testErrorHandling,
      testToolWithProgress,
      testMissingCapability,
      testStreamingElicitation,
      testLoggingTool,
      testInputRequiredResultElicitation,
      testInputRequiredResultSampling,
      testInputRequiredResultListRoots,
      testInputRequiredResultRequestState,
      testInputRequiredResultMultipleInputs,
      testInputRequiredResultMultiRound,
      testInputRequiredResultTamperedState,
      testInputRequiredResultCapabilities,
      jsonSchema202012Tool,
      testXMcpHeader,
      // The tasks extension's scenarios (tasks-*).
      greet,
      slowCompute,
      failingJob,
      protocolErrorJob,
      confirmDelete,
      multiInput,
      testToolWithTask,
      // 2025-11-25 only: questions as server-to-client requests, and log messages.
      testElicitation,
      testElicitationSep1034Defaults,
      testElicitationSep1330Enums,
      testSampling,
      testToolWithLogging,
    ],
    prompts: [
      testSimplePrompt,
      testPromptWithArguments,
      testPromptWithEmbeddedResource,
      testPromptWithImage,
      testInputRequiredResultPrompt,
    ],
    resources: [staticTextResource, staticBinaryResource, templateDataResource, watchedResource],
  };
}
