import { describeSampleProject } from '../support/sample-project.ts';

describeSampleProject('project-v4');
