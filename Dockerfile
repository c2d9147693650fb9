# One image for the API and the worker pools (tsx runs the TypeScript directly).
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY . .
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080
EXPOSE 8080
ENTRYPOINT ["node", "bin/codesynapse.js"]
CMD ["serve"]
