import { describeSampleProject } from '../support/sample-project.ts';

// The book's CronJob tutorial project, whose files its page shows: it works as the page says.
describeSampleProject('docs/projects/cronjob-tutorial', { installer: true });
