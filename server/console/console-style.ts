/** The console's additions to the docs site's stylesheet (DOCS_STYLE), served together as console.css. */
export const CONSOLE_STYLE = `
header a { color: inherit; }
main { max-width: 90rem; }
form.filters { display: flex; flex-wrap: wrap; gap: 0.6rem; align-items: end; margin: 0.5rem 0 1rem; }
form.filters label { display: flex; flex-direction: column; font-size: 0.85em; color: #57606a; }
form.filters select, form.filters input, form.filters button { font: inherit; padding: 0.15rem 0.4rem; }
div.wide { overflow-x: auto; }
table.tasks td, table.tasks th { white-space: nowrap; }
table.tasks td.message { white-space: normal; min-width: 14rem; max-width: 28rem; overflow-wrap: anywhere; }
table.facts th { background: #f6f8fa; width: 11rem; }
.status { border-radius: 1em; padding: 0 0.55em; font-size: 0.85em; border: 1px solid; white-space: nowrap; }
.status-working { color: #0550ae; border-color: #54aeff; background: #ddf4ff; }
.status-input_required { color: #9a6700; border-color: #d4a72c; background: #fff8c5; }
.status-completed { color: #116329; border-color: #4ac26b; background: #dafbe1; }
.status-cancelled { color: #57606a; border-color: #afb8c1; background: #f6f8fa; }
.status-failed { color: #a40e26; border-color: #ff8182; background: #ffebe9; }
.reason { color: #a40e26; }
.muted { color: #57606a; }
.notice { border-left: 4px solid #0969da; background: #ddf4ff; padding: 0.4rem 0.8rem; }
.pager { display: flex; gap: 1rem; margin: 0.5rem 0 1.5rem; }
form.cancel button { font: inherit; color: #fff; background: #cf222e; border: 1px solid #a40e26; border-radius: 6px; padding: 0.3rem 0.9rem; cursor: pointer; }
.console-diagram g.console-current rect,
.console-diagram g.console-current path {
  stroke: #d6336c !important;
  stroke-width: 4px !important;
  fill: #ffe3ec !important;
}
.console-diagram g.console-current { filter: drop-shadow(0 0 6px #d6336c); }
.console-diagram g.console-around > rect { stroke: #d6336c !important; stroke-dasharray: 6 3; }
.console-diagram g.console-visited rect,
.console-diagram g.console-visited path {
  stroke: #8250df !important;
  stroke-width: 2px !important;
  stroke-dasharray: 4 2;
  fill: #fbefff !important;
}
table.timeline td { white-space: nowrap; }
form.reveal { margin: 0.5rem 0; }
form.reveal button, form.answer button { font: inherit; padding: 0.2rem 0.8rem; cursor: pointer; }
form.answer { display: flex; flex-direction: column; gap: 0.4rem; max-width: 40rem; margin-bottom: 1rem; }
form.answer label { display: flex; gap: 0.5rem; align-items: center; flex-wrap: wrap; }
fieldset.replay-question { margin: 0 0 0.8rem; max-width: 40rem; }
fieldset.replay-question label { display: flex; gap: 0.5rem; align-items: center; flex-wrap: wrap; margin: 0.3rem 0; }
form.replay-open textarea, form.replay-answer textarea { width: 100%; max-width: 60rem; font-family: monospace; }
form.replay-open button, form.replay-answer button, form.replay-again button { font: inherit; padding: 0.2rem 0.8rem; margin: 0.4rem 0; cursor: pointer; }
`;
