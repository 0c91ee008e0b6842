// A Keycloak-shaped identity provider for the referee tests, built on oauth2-mock-server's library API.
//
//   node tests/referees/keycloak_idp.mjs <port> <realm>
//
// Environment: PATH_PREFIX ("" or "/auth" for legacy Keycloak URLs), CLIENT_ID, CLIENT_SECRET, TEST_USER,
// TEST_PASSWORD, ACCESS_TTL (seconds, default 300), REFRESH_TTL (seconds, default 1800).
//
// oauth2-mock-server signs real RS256 JWTs but checks nothing. This wrapper adds what Keycloak does:
// realm-relative paths, client and password checks, refresh-token rotation (each refresh token works
// once) and Keycloak's reply fields. Listens on 127.0.0.1 only; prints one "listening <issuer>" line.
import { randomUUID } from "node:crypto";
import http from "node:http";
import { OAuth2Issuer, OAuth2Service } from "oauth2-mock-server";

const [portArg, realm] = process.argv.slice(2);
if (portArg === undefined || !realm) {
  console.error("usage: keycloak_idp.mjs <port> <realm>");
  process.exit(2);
}
const env = process.env;
const PREFIX = (env.PATH_PREFIX ?? "").replace(/\/+$/, "");
const CLIENT_ID = env.CLIENT_ID ?? "seal-plossyscli";
const CLIENT_SECRET = env.CLIENT_SECRET ?? "client-secret";
const TEST_USER = env.TEST_USER ?? "seal-admin";
const TEST_PASSWORD = env.TEST_PASSWORD ?? "password";
const ACCESS_TTL = Number(env.ACCESS_TTL ?? 300);
const REFRESH_TTL = Number(env.REFRESH_TTL ?? 1800);
const SCOPE = "profile email";

const OIDC = "/protocol/openid-connect";
const issuer = new OAuth2Issuer();
await issuer.keys.generate("RS256");
const service = new OAuth2Service(issuer, {
  wellKnownDocument: "/.well-known/openid-configuration",
  token: `${OIDC}/token`,
  jwks: `${OIDC}/certs`,
  authorize: `${OIDC}/auth`,
  userinfo: `${OIDC}/userinfo`,
  revoke: `${OIDC}/revoke`,
  endSession: `${OIDC}/logout`,
  introspect: `${OIDC}/token/introspect`,
});

/** Issued refresh tokens: token -> {user, clientId, until (epoch s)}. Each is deleted on use (rotation). */
const refreshTokens = new Map();
const now = () => Math.floor(Date.now() / 1000);

/** RFC 6749 2.3.1: id and secret are form-encoded inside HTTP Basic; a value that is not is taken as is. */
function formDecode(value) {
  try {
    return decodeURIComponent(value.replace(/\+/g, " "));
  } catch {
    return value;
  }
}

function clientCredentials(req) {
  const header = req.headers.authorization ?? "";
  if (header.toLowerCase().startsWith("basic ")) {
    const decoded = Buffer.from(header.slice(6).trim(), "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon >= 0) {
      return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
    }
  }
  return { id: req.body?.client_id, secret: req.body?.client_secret };
}

/** The user a token request is for (undefined when the request will be refused). */
function userOf(req) {
  const body = req.body ?? {};
  if (body.grant_type === "password") return body.username;
  if (body.grant_type === "refresh_token") return refreshTokens.get(body.refresh_token)?.user;
  return undefined;
}

service.on("beforeTokenSigning", (token, req) => {
  const user = userOf(req);
  const payload = token.payload;
  payload.jti = randomUUID(); // as Keycloak: two tokens issued in the same second still differ
  payload.exp = payload.iat + ACCESS_TTL;
  payload.azp = clientCredentials(req).id;
  // the library gives the id_token an aud (the client) and the access token none
  payload.typ = payload.aud === undefined ? "Bearer" : "ID";
  if (payload.typ === "Bearer") payload.scope = req.body?.scope || SCOPE;
  else delete payload.scope;
  if (user !== undefined) {
    payload.sub = user;
    payload.preferred_username = user;
  }
});

function refuse(response, statusCode, error, description) {
  response.statusCode = statusCode;
  response.body = { error, error_description: description };
}

service.on("beforeResponse", (response, req) => {
  const body = req.body ?? {};
  const client = clientCredentials(req);
  let user;
  if (client.id !== CLIENT_ID || client.secret !== CLIENT_SECRET) {
    refuse(response, 401, "unauthorized_client", "Invalid client or Invalid client credentials");
  } else if (body.grant_type === "password") {
    if (body.username === TEST_USER && body.password === TEST_PASSWORD) user = body.username;
    else refuse(response, 401, "invalid_grant", "Invalid user credentials");
  } else if (body.grant_type === "refresh_token") {
    const entry = refreshTokens.get(body.refresh_token);
    refreshTokens.delete(body.refresh_token);
    if (entry === undefined || entry.clientId !== client.id) {
      refuse(response, 400, "invalid_grant", "Invalid refresh token");
    } else if (entry.until <= now()) {
      refuse(response, 400, "invalid_grant", "Token is not active");
    } else {
      user = entry.user;
    }
  } else if (body.grant_type !== "client_credentials") {
    refuse(response, 400, "unsupported_grant_type", "Unsupported grant_type");
  }
  console.log(`token ${body.grant_type} -> ${response.statusCode}`);
  if (response.statusCode !== 200) return;
  const reply = response.body;
  reply.expires_in = ACCESS_TTL;
  reply.scope = body.scope || SCOPE;
  if (reply.refresh_token !== undefined) {
    reply.refresh_expires_in = REFRESH_TTL;
    refreshTokens.set(reply.refresh_token, { user, clientId: client.id, until: now() + REFRESH_TTL });
  }
  reply["not-before-policy"] = 0;
});

const realmPath = `${PREFIX}/realms/${realm}`;
const handler = service.requestHandler;
const server = http.createServer((req, res) => {
  const url = req.url ?? "/";
  const rest = url.startsWith(realmPath) ? url.slice(realmPath.length) : null;
  if (rest === null || (rest !== "" && !rest.startsWith("/") && !rest.startsWith("?"))) {
    res.writeHead(404, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ error: "Realm does not exist" }));
    return;
  }
  req.url = rest.startsWith("/") ? rest : `/${rest}`;
  handler(req, res);
});

server.on("error", (err) => {
  console.error(`keycloak_idp: ${err.message}`);
  process.exit(1);
});
server.listen(Number(portArg), "127.0.0.1", () => {
  const { port } = server.address();
  issuer.url = `http://127.0.0.1:${port}${realmPath}`;
  console.log(`listening ${issuer.url}`);
});

function stop() {
  server.close(() => process.exit(0));
  server.closeAllConnections();
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
