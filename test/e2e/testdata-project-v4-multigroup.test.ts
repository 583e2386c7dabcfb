import { describeSampleProject } from '../support/sample-project.ts';

describeSampleProject('testdata/project-v4-multigroup');
