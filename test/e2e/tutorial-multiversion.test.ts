import { describeSampleProject } from '../support/sample-project.ts';

// The book's Multi-Version tutorial project, whose files its page shows: it works as the page says.
describeSampleProject('docs/projects/multiversion-tutorial');
