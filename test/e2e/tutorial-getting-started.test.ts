import { describeSampleProject } from '../support/sample-project.ts';

// The book's Getting Started project, whose files its page explains: it works as the page says.
describeSampleProject('docs/projects/getting-started');
