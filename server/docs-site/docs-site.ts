/**
 * The docs of one set of flows: an index and a page per flow. A page runs its example once and is
 * kept (the machines do not change while a process lives), so serving it again costs nothing.
 */
import type {
  PromptDefinition,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ToolDefinition,
} from '../engine/index.js';
import type { DocPage } from './doc-page.js';
import { flowSlug, sortFlows, type DocumentedFlow, type FlowKind } from './documented-flow.js';
import { flowPage } from './flow-page.js';
import { indexPage } from './index-page.js';

export interface DocsContent {
  tools: ToolDefinition[];
  prompts?: PromptDefinition[] | undefined;
  resources?: Array<ResourceDefinition | ResourceTemplateDefinition> | undefined;
}

export function documentedFlows(content: DocsContent): DocumentedFlow[] {
  return sortFlows([
    ...content.tools.map((definition) => ({ kind: 'tool' as const, definition })),
    ...(content.prompts ?? []).map((definition) => ({ kind: 'prompt' as const, definition })),
    ...(content.resources ?? []).map((definition) => ({ kind: 'resource' as const, definition })),
  ]);
}

export class DocsSite {
  readonly flows: DocumentedFlow[];
  readonly #index: DocPage;
  readonly #pages = new Map<string, Promise<DocPage>>();

  constructor(content: DocsContent) {
    this.flows = documentedFlows(content);
    this.#index = indexPage(this.flows);
  }

  index(): DocPage {
    return this.#index;
  }

  /** The page of one flow by kind and slug, or undefined when there is no such flow. */
  page(kind: FlowKind, slug: string): Promise<DocPage> | undefined {
    const flow = this.flows.find((f) => f.kind === kind && flowSlug(f) === slug);
    if (!flow) return undefined;
    const key = `${kind}/${slug}`;
    let page = this.#pages.get(key);
    if (!page) {
      page = flowPage(flow);
      // A failed run is not kept: the next request tries again.
      page.catch(() => this.#pages.delete(key));
      this.#pages.set(key, page);
    }
    return page;
  }

  /** Every page, index first, flows in index order. */
  async all(): Promise<DocPage[]> {
    const pages: DocPage[] = [this.#index];
    for (const flow of this.flows) pages.push(await this.page(flow.kind, flowSlug(flow))!);
    return pages;
  }
}
