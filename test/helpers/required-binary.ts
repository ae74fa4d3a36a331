/**
 * Suites that need a program the README does not ask a contributor to install (nginx,
 * redis-server, Chromium, Prometheus) skip without it, with one line on stderr saying what to install. Under
 * `CI=1` they are required: a CI image that lost one fails instead of passing quietly.
 */
import { existsSync } from 'node:fs';
import { nginxBinary } from './nginx.js';
import { prometheusAvailable } from './prometheus-server.js';
import { redisAvailable } from '../../bench/redis/index.js';

export interface RequiredBinary {
  /** What the suite needs, as a person would name it. */
  name: string;
  present: () => boolean;
  install: string;
}

export const REDIS: RequiredBinary = {
  name: 'redis-server',
  present: redisAvailable,
  install: 'apt-get install redis-server',
};

export const NGINX: RequiredBinary = {
  name: 'nginx',
  present: () => nginxBinary() !== undefined,
  install: 'apt-get install nginx',
};

export const PROMETHEUS: RequiredBinary = {
  name: 'prometheus',
  present: prometheusAvailable,
  install: 'apt-get install prometheus',
};

/** Debian's chromium, driven by playwright-core (which never downloads a browser). */
export const CHROMIUM_PATH = process.env.BATON_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM: RequiredBinary = {
  name: 'chromium',
  present: () => existsSync(CHROMIUM_PATH),
  install: `apt-get install chromium, or set BATON_CHROMIUM to a Chromium binary`,
};

const announced = new Set<string>();

/** Call first in a suite's `before` hook (a `function`, for `this`). */
export function requireBinaries(context: Mocha.Context, ...binaries: RequiredBinary[]): void {
  const missing = binaries.filter((binary) => !binary.present());
  if (missing.length === 0) return;
  const suite = context.test?.parent?.fullTitle() ?? 'a suite';
  const what = missing.map((binary) => `${binary.name} (${binary.install})`).join(', ');
  if (process.env.CI) throw new Error(`${suite} needs ${what}: CI requires it`);
  const line = `skipped "${suite}": needs ${what}`;
  if (!announced.has(line)) process.stderr.write(`${line}\n`);
  announced.add(line);
  context.skip();
}
