/**
 * The console's pages (`/console`): the task list, a task's page with its diagram, the stuck view.
 * HTML from task summaries (engine/tasks/task-summary.ts), in the docs site's look; knows nothing
 * of Koa (server/http/console-routes.ts serves them).
 */
export { consolePage, ago, timeAgo, escapeHtml } from './console-page.js';
export { CONSOLE_STYLE } from './console-style.js';
export {
  taskListPage,
  CHANGED_FILTERS,
  STATUS_FILTERS,
  type TaskListView,
  type TaskListFilters,
} from './task-list-page.js';
export { taskPage, type TaskPageView } from './task-page.js';
export { stuckPage, type StuckView } from './stuck-page.js';
export { taskDiagram, type TaskDiagram } from './task-diagram.js';
export { replayPage, type ReplayView, type ReplayOutcomeView } from './replay-page.js';
export { readReplayAnswers } from './replay-answers.js';
export { answerForms, answerFromForm, formFields } from './answer-form.js';
