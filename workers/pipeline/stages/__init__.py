"""The pipeline's stages, in order. Each module holds one pure stage: frozen records (and the
dependencies it calls: a teacher, a sandbox runner) in, outcome records out; no database, no
Celery, no settings. `workers.runner` loads each stage's inputs by id and upserts its outcome;
the Celery tasks and `execsynth synth` / `demo` run the same runner functions."""

STAGE_NAMES = ("generate", "inputs", "execute", "judge")
