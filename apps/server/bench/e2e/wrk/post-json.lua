-- The same JSON request on every connection, for `wrk -s post-json.lua <url>` (bench/e2e/run-wrk.ts):
--   WRK_METHOD  the method (default POST)
--   WRK_BODY    the JSON body (default none)
-- The path is the URL's and other headers come from wrk's own -H. The request is built once, by wrk's default
-- init(), and no request() or response() callback is defined: either would run Lua for every request and slow wrk.
wrk.method = os.getenv("WRK_METHOD") or "POST"
local body = os.getenv("WRK_BODY")
if body ~= nil and body ~= "" then
  wrk.body = body
  wrk.headers["Content-Type"] = "application/json"
end
