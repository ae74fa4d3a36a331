/**
 * endAfterTurn: responses finished during one turn of the event loop are written after it, in the
 * order they were finished, each whole with its Content-Length; one that cannot be ended is closed
 * without holding back the others.
 */
import { expect } from 'chai';
import http, { type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { endAfterTurn } from '../../server/http/end-after-turn.js';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Stands in for a response: records when it was ended or destroyed. */
function fakeResponse(log: string[], name: string, endThrows = false): ServerResponse {
  return {
    end(body: string) {
      if (endThrows) throw new Error(`${name} cannot be written`);
      log.push(`end ${name} ${body}`);
    },
    destroy(error: Error) {
      log.push(`destroy ${name}: ${error.message}`);
    },
  } as unknown as ServerResponse;
}

describe('endAfterTurn', () => {
  it('writes nothing during the turn, then every response of the turn in the order finished', async () => {
    const log: string[] = [];
    endAfterTurn(fakeResponse(log, 'a'), '1');
    endAfterTurn(fakeResponse(log, 'b'), '2');
    endAfterTurn(fakeResponse(log, 'c'), '3');
    expect(log).to.deep.equal([]);
    await nextTurn();
    expect(log).to.deep.equal(['end a 1', 'end b 2', 'end c 3']);
  });

  it('closes a response that cannot be ended and still writes the rest of the batch', async () => {
    const log: string[] = [];
    endAfterTurn(fakeResponse(log, 'a'), '1');
    endAfterTurn(fakeResponse(log, 'broken', true), '2');
    endAfterTurn(fakeResponse(log, 'c'), '3');
    await nextTurn();
    expect(log).to.deep.equal(['end a 1', 'destroy broken: broken cannot be written', 'end c 3']);
  });

  it('puts a response finished while a batch is written into the next batch', async () => {
    const log: string[] = [];
    const late = fakeResponse(log, 'late');
    const first = {
      end(body: string) {
        log.push(`end first ${body}`);
        endAfterTurn(late, '2');
      },
    } as unknown as ServerResponse;
    endAfterTurn(first, '1');
    await nextTurn();
    expect(log).to.deep.equal(['end first 1']);
    await nextTurn();
    expect(log).to.deep.equal(['end first 1', 'end late 2']);
  });

  it('sends a real response whole, with its headers and Content-Length, once the turn is over', async () => {
    const endedDuringTurn: boolean[] = [];
    const server = http.createServer((_request, response) => {
      response.statusCode = 201;
      response.setHeader('Content-Type', 'application/json');
      endAfterTurn(response, '{"ok":true}');
      endedDuringTurn.push(response.writableEnded);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const answer = await fetch(`http://127.0.0.1:${port}/`);
      expect(answer.status).to.equal(201);
      expect(answer.headers.get('content-length')).to.equal('11');
      expect(await answer.json()).to.deep.equal({ ok: true });
      expect(endedDuringTurn).to.deep.equal([false]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
