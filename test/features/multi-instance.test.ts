/**
 * Statelessness across processes: every round of a flow may land on a different Baton instance,
 * because all a round needs travels in the sealed `requestState`. Real server processes
 * (`baton serve`) are started on loopback; instances that share BATON_KEYS continue each other's
 * flows, an instance with a different key refuses them, and an instance that rotated to a new key
 * (new first, old still listed) still opens states sealed with the old one.
 */
import { expect } from 'chai';
import { generateKeyEntry } from '../../server/engine/index.js';
import { callTool, type RawResponse } from '../helpers/mcp-http.js';
import { BatonFleet, type BatonInstance } from '../helpers/spawn-baton.js';

interface InputRequest {
  method: string;
  params: { mode?: string; message?: string; requestedSchema?: { properties: Record<string, unknown> } };
}

/** Accepts every form request, filling each field of its requested schema from `replies`. */
function answerAll(inputRequests: Record<string, InputRequest>, replies: Record<string, unknown>) {
  const responses: Record<string, unknown> = {};
  for (const [key, request] of Object.entries(inputRequests)) {
    const fields = Object.keys(request.params.requestedSchema?.properties ?? {});
    const content = Object.fromEntries(
      fields.map((field) => {
        if (!(field in replies)) throw new Error(`the test has no reply for field "${field}"`);
        return [field, replies[field]];
      }),
    );
    responses[key] = { action: 'accept', content };
  }
  return responses;
}

/** The fields asked in a round, across all its requests. */
function askedFields(response: RawResponse): string[] {
  const requests = Object.values(response.body.result.inputRequests as Record<string, InputRequest>);
  return requests.flatMap((request) => Object.keys(request.params.requestedSchema?.properties ?? {})).sort();
}

function servedBy(response: RawResponse): string | null {
  return response.headers.get('baton-instance');
}

/**
 * Drives one tool call through `legs`: leg i goes to `legs[i].instance` and answers the previous
 * round's questions with `legs[i].replies` (the first leg starts the flow). Returns every response.
 */
async function runAcross(
  tool: string,
  args: Record<string, unknown>,
  legs: Array<{ instance: BatonInstance; replies?: Record<string, unknown> }>,
): Promise<RawResponse[]> {
  const responses: RawResponse[] = [];
  for (const [index, leg] of legs.entries()) {
    const previous = responses[index - 1];
    const round = previous
      ? {
          requestState: previous.body.result.requestState,
          inputResponses: answerAll(previous.body.result.inputRequests, leg.replies ?? {}),
        }
      : {};
    const response = await callTool(leg.instance.url, tool, args, round);
    expect(response.status, response.text).to.equal(200);
    expect(response.body.error, response.text).to.equal(undefined);
    responses.push(response);
  }
  return responses;
}

describe('multi-instance: one flow across separate Baton processes', function () {
  // Five processes start in parallel; tsx compiles the server on each first start.
  this.timeout(150_000);

  const fleet = new BatonFleet();
  const sharedKeys = generateKeyEntry('shared');
  let one: BatonInstance;
  let two: BatonInstance;
  let three: BatonInstance;
  let stranger: BatonInstance;
  let rotated: BatonInstance;

  before(async () => {
    [one, two, three, stranger, rotated] = await Promise.all([
      fleet.start({ keys: sharedKeys }),
      fleet.start({ keys: sharedKeys }),
      fleet.start({ keys: sharedKeys }),
      // Same key id, different secret: the envelope names a key this instance has, and the
      // authenticator still refuses it.
      fleet.start({ keys: generateKeyEntry('shared') }),
      // Rotation: the new key seals, the old one still opens.
      fleet.start({ keys: `${generateKeyEntry('new')},${sharedKeys}` }),
    ]);
  });

  after(async () => {
    await fleet.stopAll();
  });

  it('runs as separate processes with distinct instance ids', () => {
    const pids = new Set([one, two, three, stranger, rotated].map((instance) => instance.pid));
    const ids = new Set([one, two, three, stranger, rotated].map((instance) => instance.instanceId));
    expect(pids.size).to.equal(5);
    expect(ids.size).to.equal(5);
  });

  it('completes a release whose three rounds go to instances 1, 2 and 3', async () => {
    const args = { service: 'billing', version: '2.4.0' };
    const [first, second, third] = await runAcross('release', args, [
      { instance: one },
      { instance: two, replies: { window: 'tonight' } },
      { instance: three, replies: { confirm: true } },
    ]);

    expect(first!.body.result.resultType).to.equal('input_required');
    expect(askedFields(first!)).to.deep.equal(['window']);
    expect(second!.body.result.resultType).to.equal('input_required');
    expect(askedFields(second!)).to.deep.equal(['confirm']);
    expect(third!.body.result.resultType).to.equal('complete');
    expect(third!.body.result.isError ?? false).to.equal(false);
    expect(third!.body.result.structuredContent).to.include({ released: true, window: 'tonight' });

    const instances = [first, second, third].map((response) => servedBy(response!));
    expect(instances).to.deep.equal([one.instanceId, two.instanceId, three.instanceId]);
    expect(new Set(instances).size).to.equal(3);
  });

  it('completes provision-database across instances, keeping the size when only the region is asked again', async () => {
    const responses = await runAcross('provision-database', { project: 'atlas' }, [
      { instance: one },
      // large + ap-south is refused by the availability check: only the region is asked again.
      { instance: two, replies: { size: 'large', region: 'ap-south' } },
      { instance: three, replies: { region: 'eu-west' } },
      { instance: one, replies: { confirm: true } },
    ]);
    const [both, regionAgain, confirm, done] = responses;

    expect(askedFields(both!)).to.deep.equal(['region', 'size']);
    expect(Object.keys(both!.body.result.inputRequests)).to.have.length(2);
    expect(askedFields(regionAgain!)).to.deep.equal(['region']);
    expect(askedFields(confirm!)).to.deep.equal(['confirm']);
    expect(done!.body.result.resultType).to.equal('complete');
    expect(done!.body.result.structuredContent).to.include({ project: 'atlas', size: 'large', region: 'eu-west' });
    expect(responses.map(servedBy)).to.deep.equal([one, two, three, one].map((instance) => instance.instanceId));
  });

  it('an instance with a different key refuses a state issued by instance 1, and runs nothing', async () => {
    const args = { service: 'billing', version: '2.4.0' };
    const [issued] = await runAcross('release', args, [{ instance: one }]);
    const round = {
      requestState: issued!.body.result.requestState,
      inputResponses: answerAll(issued!.body.result.inputRequests, { window: 'now' }),
    };

    const refused = await callTool(stranger.url, 'release', args, round);
    expect(servedBy(refused)).to.equal(stranger.instanceId);
    expect(refused.body.error?.code, refused.text).to.equal(-32602);
    expect(refused.body).to.not.have.property('result');

    // The state itself was fine: an instance with the shared key continues it.
    const continued = await callTool(two.url, 'release', args, round);
    expect(continued.body.result?.resultType, continued.text).to.equal('input_required');
    expect(askedFields(continued)).to.deep.equal(['confirm']);
  });

  it('an instance that rotated to a new key opens a state sealed with the old key and completes', async () => {
    const args = { service: 'search', version: '7.1.0' };
    const [issued, resealed, done] = await runAcross('release', args, [
      { instance: one },
      { instance: rotated, replies: { window: 'weekend' } },
      { instance: rotated, replies: { confirm: true } },
    ]);
    expect(servedBy(issued!)).to.equal(one.instanceId);
    expect(done!.body.result.structuredContent).to.include({ released: true, window: 'weekend' });

    // The rotated instance seals with the new key, which instance 1 does not have yet: this is why
    // a new key is added everywhere before it is moved to the front.
    const notYet = await callTool(one.url, 'release', args, {
      requestState: resealed!.body.result.requestState,
      inputResponses: answerAll(resealed!.body.result.inputRequests, { confirm: true }),
    });
    expect(notYet.body.error?.code, notYet.text).to.equal(-32602);
  });
});
