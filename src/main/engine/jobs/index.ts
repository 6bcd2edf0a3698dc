// The jobs capability (spec 4.6-4.8): queue, runner, writers. See README.md next to this file.
export { startJobRunner, type JobRunner, type JobRunnerOptions } from './runner';
export { submitJob } from './submit';
export { parseRepliesJob, parseSearchJob, parseTimelineJob, type RawParams } from './request';
export { jobOfUser } from './access';
export { jobStatusBody, type JobStatusBody } from './status-body';
export { cancelJob } from './queue/cancel';
export { deleteJob, deletedJobMessage, type DeletedJob } from './delete-job';
export { getJob, type JobRow } from './job-row';
export { setListenerBaseUrl, listenerBaseUrl } from './base-url';
export { notifyJobsChanged } from './notify';
export { COLUMNS } from './writers/columns';
