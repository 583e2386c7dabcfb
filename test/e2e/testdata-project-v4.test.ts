import { describeSampleProject } from '../support/sample-project.ts';

// Its Memcached runs an image: its e2e suite is the one the repository's CI runs (one control plane).
describeSampleProject('testdata/project-v4', { e2e: true });
