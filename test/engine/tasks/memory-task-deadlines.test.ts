/** MemoryTaskStore.claimExpired: the shared deadline cases. */
import { MemoryTaskStore } from '../../../server/engine/index.js';
import { deadlineCases } from './task-deadline-cases.js';

describe('MemoryTaskStore.claimExpired', () => {
  deadlineCases(() => {
    let ahead = 0;
    const store = new MemoryTaskStore({ clock: () => Date.now() + ahead });
    return {
      store,
      // Past every record's retention: the store deletes records as it next reads them.
      deleteRecord: async () => void (ahead = 24 * 60 * 60_000),
    };
  });
});
