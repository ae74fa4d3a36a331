// The project's tools module, as `baton new --project` writes it; the docs' blocks import `tools` from here.
import { bookingTool } from './booking.js';
import { expenseApprovalTool } from './expense-approval.js';
import { provisionDatabaseTool } from './provision-database.js';
import { releaseTool } from './release.js';

export const tools = [bookingTool, expenseApprovalTool, provisionDatabaseTool, releaseTool];
