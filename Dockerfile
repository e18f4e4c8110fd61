# syntax=docker/dockerfile:1
# The service as one image: built with every dependency, run with production dependencies only.

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json tsconfig.client.json ./
COPY src ./src
RUN npm run build

FROM node:24-bookworm-slim AS runtime
# FFmpeg from Debian (FFMPEG_PATH below) instead of the copy inside the npm package; tini reaps the
# FFmpeg processes audio jobs start; prlimit (util-linux) bounds their memory.
RUN apt-get update \
  && apt-get install -y --no-install-recommends ffmpeg tini util-linux \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# Migrations are applied at start; `tmw` (backups, users, keys) runs the sources through tsx.
COPY drizzle ./drizzle
COPY bin ./bin
COPY src ./src
RUN mkdir -p /data && chown node:node /data
ENV HOST=0.0.0.0 \
  PORT=3000 \
  DATA_DIR=/data \
  FFMPEG_PATH=/usr/bin/ffmpeg \
  PATH=/app/bin:$PATH
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/v1/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--max-semi-space-size=8", "--heap-growing-percent=20", "dist/server.js"]
