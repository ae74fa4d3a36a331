import { expect } from 'chai';
import { libraryOf, summarizeProfile } from '../../bench/profile/summarize-profile.js';

describe('summarizeProfile', () => {
  const node = (id: number, functionName: string, url: string) => ({ id, callFrame: { functionName, url } });
  const profile = {
    nodes: [
      node(1, '(idle)', ''),
      node(2, '(garbage collector)', ''),
      node(3, 'macrostep', 'file:///app/node_modules/xstate/dist/raise-1.cjs.js'),
      node(4, 'openState', 'file:///app/dist/server/engine/state/sealed-state.js'),
      node(5, 'writev', ''),
    ],
    // idle 50, GC 10, xstate 20, openState 10, writev 10 (µs of samples): 50 busy.
    samples: [1, 2, 3, 3, 4, 5],
    timeDeltas: [50, 10, 10, 10, 10, 10],
  };

  it('spreads the server CPU per request over the busy samples, idle left out', () => {
    const summary = summarizeProfile(profile, 100);
    expect(summary.top.map((f) => [f.name, f.micros])).to.deep.equal([
      ['macrostep', 40],
      ['(garbage collector)', 20],
      ['openState', 20],
      ['writev', 20],
    ]);
    expect(summary.top[0]!.where).to.equal('xstate');
    expect(summary.top[2]!.where).to.equal('server/engine/state/sealed-state.js');
  });

  it('groups by library', () => {
    const summary = summarizeProfile(profile, 100);
    expect(Object.fromEntries(summary.byLibrary.map((l) => [l.library, l.micros]))).to.deep.equal({
      xstate: 40,
      'garbage collector': 20,
      'server/engine/state': 20,
      'socket write': 20,
    });
    expect(libraryOf('file:///app/node_modules/on-finished/index.js', 'onFinish')).to.equal('koa and its helpers');
    expect(libraryOf('node:_http_server', 'parserOnIncoming')).to.equal('node http and streams');
    expect(libraryOf('node:internal/abort_controller', 'createAbortSignal')).to.equal(
      'node other (promises, timers, events, crypto, abort)',
    );
  });

  it('leaves out start-up: the samples before the first one inside a request handler', () => {
    const withStartUp = {
      nodes: [
        { id: 1, callFrame: { functionName: 'compileSourceTextModule', url: 'node:internal/modules/esm/utils' } },
        {
          id: 2,
          callFrame: { functionName: '(anonymous)', url: 'file:///app/dist/server/http/mcp-endpoint.js' },
          children: [3],
        },
        {
          id: 3,
          callFrame: { functionName: 'openState', url: 'file:///app/dist/server/engine/state/sealed-state.js' },
        },
        { id: 4, callFrame: { functionName: '(garbage collector)', url: '' } },
      ],
      samples: [1, 1, 3, 1, 4],
      timeDeltas: [30, 30, 10, 10, 10],
    };
    const summary = summarizeProfile(withStartUp, 30);
    // From the first sample inside the endpoint: openState 10, compile 10 (after start-up), GC 10.
    expect(Object.fromEntries(summary.top.map((f) => [f.name, f.micros]))).to.deep.equal({
      openState: 10,
      compileSourceTextModule: 10,
      '(garbage collector)': 10,
    });
  });

  it('groups the task path: BullMQ, ioredis, the task engine, superjson, and every socket write', () => {
    expect(libraryOf('file:///app/node_modules/bullmq/dist/esm/classes/job.js', 'addJob')).to.equal('bullmq');
    expect(libraryOf('file:///app/node_modules/ioredis/built/Command.js', 'Command')).to.equal('ioredis');
    expect(libraryOf('file:///app/node_modules/redis-parser/lib/parser.js', 'execute')).to.equal('ioredis');
    expect(libraryOf('file:///app/node_modules/superjson/dist/plainer.js', 'walk')).to.equal('superjson');
    expect(libraryOf('file:///app/dist/server/engine/tasks/task-runner.js', 'run')).to.equal('server/engine/tasks');
    expect(libraryOf('node:internal/deps/undici/undici', 'fetch')).to.equal('fetch (the bench client)');
    expect(libraryOf('', 'writeBuffer')).to.equal('socket write');
  });

  it("leaves out an in-process profile's own stop, which comes after the measured window", () => {
    const inProcess = {
      nodes: [
        { id: 1, callFrame: { functionName: 'addJob', url: 'file:///app/node_modules/bullmq/dist/job.js' } },
        { id: 2, callFrame: { functionName: 'dispatch', url: '' } },
      ],
      samples: [1, 1, 2],
      timeDeltas: [10, 10, 500],
    };
    const summary = summarizeProfile(inProcess, 50);
    expect(summary.byLibrary).to.deep.equal([{ library: 'bullmq', micros: 50, share: 1 }]);
  });
});
