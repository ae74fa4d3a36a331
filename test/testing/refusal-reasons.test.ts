import { expect } from 'chai';
import type { InputRequest } from '../../server/engine/index.js';
import { accept, decline, pathProblem, runFlow } from '../../server/testing/index.js';
import { refusalWatcher } from '../../server/testing/refusal-reasons.js';
import { flawedTool, untypedTeamTool } from './fixtures.js';

const form = (message: string): InputRequest => ({ method: 'elicitation/create', params: { mode: 'form', message } });

describe('refusal reasons', () => {
  describe('runFlow', () => {
    it('keeps the reason the server gave for the last answer it refused', async () => {
      const run = await runFlow(untypedTeamTool(), {}, { team: accept({ team: 'platfrom' }) }, { maxRounds: 4 });
      expect(run.outcome).to.equal('unfinished');
      expect(run.refused?.key).to.equal('team');
      // The reason alone: the re-ask's message is the reason, then the question's own message.
      const { result } = run.rounds.at(-1)!.response as { result?: { inputRequests: Record<string, InputRequest> } };
      const message = result!.inputRequests.team!.params!.message as string;
      expect(message).to.equal(`${run.refused!.reason} Which team?`);
    });

    it('reports no refusal when every answer was taken (a loop of the machine’s own)', async () => {
      const run = await runFlow(flawedTool(), {}, { ok: decline() }, { maxRounds: 4 });
      expect(run.outcome).to.equal('unfinished');
      expect(run).not.to.have.property('refused');
    });

    it('reports the last refusal only, after answers that were later taken', async () => {
      const run = await runFlow(
        untypedTeamTool(),
        {},
        {
          team: [accept({ team: 'platfrom' }), accept({ team: 'platform' })],
        },
      );
      expect(run.outcome).to.equal('complete');
      expect(run.refused?.key).to.equal('team');
    });
  });

  describe('the loop problem (pathProblem)', () => {
    it("says the server's reason for the last refused answer when a run keeps being asked", async () => {
      const run = await runFlow(untypedTeamTool(), {}, { team: accept({ team: 'platfrom' }) }, { maxRounds: 4 });
      const problem = pathProblem(run)!;
      expect(problem).to.match(/^still asking after 4 rounds/);
      expect(problem).to.include('"team"').and.to.include(run.refused!.reason);
    });

    it('says only that it loops when no answer was refused', async () => {
      const run = await runFlow(flawedTool(), {}, { ok: decline() }, { maxRounds: 4 });
      expect(pathProblem(run)).to.match(/a loop\?$/);
    });
  });

  describe('refusalWatcher', () => {
    it('takes the part before the plain message as the reason', () => {
      const watcher = refusalWatcher();
      watcher.see('team', form('Which team?'));
      expect(watcher.last()).to.equal(undefined);
      watcher.see('team', form('Your last answer could not be read. Which team?'));
      expect(watcher.last()).to.deep.equal({ key: 'team', reason: 'Your last answer could not be read.' });
    });

    it('keeps the whole message when the question’s message changed with the context', () => {
      const watcher = refusalWatcher();
      watcher.see('date', form('Which date? (1 of 3)'));
      watcher.see('date', form('Your last answer was not accepted: date must be a date. Which date? (2 of 3)'));
      expect(watcher.last()?.reason).to.equal(
        'Your last answer was not accepted: date must be a date. Which date? (2 of 3)',
      );
    });

    it('reads nothing from a request without a message (sampling, roots)', () => {
      const watcher = refusalWatcher();
      watcher.see('roots', { method: 'roots/list', params: {} });
      expect(watcher.last()).to.equal(undefined);
    });
  });
});
