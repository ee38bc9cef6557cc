# One image for every role (api, workers, beat, migrate); the command picks the role.
# The dashboard's charting library is fetched from the npm registry in a build stage.
FROM node:20-slim AS web
WORKDIR /src
COPY scripts/install_web_assets.sh scripts/
RUN mkdir -p app/web && bash scripts/install_web_assets.sh

FROM python:3.11-slim

RUN apt-get update \
    && apt-get install -y --no-install-recommends util-linux bubblewrap \
    && rm -rf /var/lib/apt/lists/*

RUN useradd --create-home --uid 10001 execsynth
WORKDIR /srv/execsynth
COPY pyproject.toml README.md ./
COPY app ./app
COPY workers ./workers
COPY sandbox ./sandbox
COPY training ./training
COPY migrations ./migrations
COPY execsynth ./execsynth
COPY --from=web /src/app/web/vendor ./app/web/vendor
RUN pip install --no-cache-dir .

# a named volume mounted at /data starts as a copy of this folder, owned by the image's user
RUN mkdir -p /data && chown execsynth:execsynth /data
USER execsynth
ENV EXECSYNTH_DATA_DIR=/data
VOLUME /data
EXPOSE 8000
CMD ["execsynth", "serve", "--host", "0.0.0.0", "--port", "8000", "--no-worker", "--no-migrate"]
