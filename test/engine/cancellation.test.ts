import { expect } from 'chai';
import { abortSignalOf, Cancellation } from '../../server/engine/cancellation.js';

describe('Cancellation', () => {
  it('says aborted without a signal ever being made, and hands out an aborted one afterwards', () => {
    const cancellation = new Cancellation();
    expect(cancellation.aborted).to.equal(false);
    cancellation.abort();
    expect(cancellation.aborted).to.equal(true);
    expect(cancellation.signal.aborted).to.equal(true);
  });

  it('aborts a signal handed out earlier, once', () => {
    const cancellation = new Cancellation();
    const signal = cancellation.signal;
    let aborts = 0;
    signal.addEventListener('abort', () => aborts++);
    expect(cancellation.signal).to.equal(signal);
    cancellation.abort();
    cancellation.abort();
    expect(signal.aborted).to.equal(true);
    expect(aborts).to.equal(1);
  });

  it('follows a signal owned elsewhere', () => {
    const controller = new AbortController();
    const cancellation = Cancellation.following(controller.signal);
    expect(cancellation.signal).to.equal(controller.signal);
    expect(cancellation.aborted).to.equal(false);
    controller.abort();
    expect(cancellation.aborted).to.equal(true);
  });

  it('gives the AbortSignal of either form', () => {
    const controller = new AbortController();
    expect(abortSignalOf(controller.signal)).to.equal(controller.signal);
    const cancellation = new Cancellation();
    expect(abortSignalOf(cancellation)).to.equal(cancellation.signal);
  });
});
