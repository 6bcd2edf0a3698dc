// Worker thread entry for the job runner (bundled to out/main/job-worker.js). The jobs capability
// fills this in; until then the worker has nothing to do.
export {};
