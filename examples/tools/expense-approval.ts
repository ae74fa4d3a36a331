// The typed-API tool the authoring tests use, as docs/testing.md's first block names it (see release.ts).
export { expenseApprovalTool } from '../../test/engine/authoring/expense-approval.js';
