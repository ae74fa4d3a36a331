// The parser as its own package exports it; it resolves `xstate/lib/*` from this folder's XState v4.
module.exports = require('@xstate/machine-extractor');
