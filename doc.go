// Package cairn is an HTTP request router: a superset of the patterns of
// [net/http.ServeMux] (Go 1.22 and later), with constrained wildcards, that
// finds routes without allocating.
//
// A [Router] is an [http.Handler]. Register handlers with [Router.Handle] or
// [Router.HandleFunc]; read path parameters with [Param] or, as with
// ServeMux, [http.Request.PathValue].
//
//	r := cairn.New()
//	r.HandleFunc("GET /repos/{owner}/{repo}", func(w http.ResponseWriter, req *http.Request) {
//		fmt.Fprintln(w, cairn.Param(req, "owner"), cairn.Param(req, "repo"))
//	})
//	r.HandleFunc("GET /users/{id:int}", showUser)
//	http.ListenAndServe("127.0.0.1:8080", r)
//
// # Patterns
//
// A pattern is [METHOD ][HOST]/[PATH], exactly as for ServeMux:
//
//   - METHOD, if present, is followed by one or more spaces or tabs. A
//     pattern with no method matches every method; a GET pattern also
//     matches HEAD requests.
//   - HOST, if present, must equal the request's host (its port stripped).
//     The method, the blanks after it and the host may take at most 65535
//     bytes; ServeMux has no such limit, and a longer one is rejected.
//   - PATH is made of segments separated by '/'. A literal segment matches
//     itself after unescaping, so "/%61" matches "/a".
//   - {name} matches one whole segment, {name...} the rest of the path
//     (it must be last, and may match the empty string), and {$} only the
//     end of a path that ends in a slash: "/a/{$}" matches "/a/" and nothing
//     below it.
//   - A pattern that ends in a slash, such as "/static/", matches the whole
//     subtree, like an anonymous {name...}.
//   - Names are Go identifiers, distinct within a pattern.
//
// cairn adds constrained wildcards, {name:constraint}, which match one
// segment that satisfies the constraint. The constraint is either the name
// of a constraint or a regular expression (package regexp syntax) that must
// match the whole unescaped segment, such as {code:[A-Z]{3}}. A regular
// expression may hold balanced braces but not '/'. An identifier that names
// no constraint is an error rather than a regular expression, so a misspelt
// name cannot silently match only itself; write (?:word) for that. The
// built-in constraints are byte loops, not regular expressions:
//
//	int    an optional '-' and one or more ASCII digits
//	uint   one or more ASCII digits
//	hex    one or more hexadecimal digits, either case
//	alpha  one or more ASCII letters
//	alnum  one or more ASCII letters or digits
//	uuid   8-4-4-4-12 hexadecimal digits and '-', either case, any version
//	ipv4   four decimal numbers 0-255 separated by '.', no leading zeros
//
// [Router.DefineConstraint] and [Router.DefineRegexp] add named constraints
// to a router, from a function or a regular expression. There is no range
// check: "int" accepts 99999999999999999999; parse the value in the handler.
//
// # Precedence
//
// When several patterns match a request, the most specific wins, as with
// ServeMux: a pattern with a host beats one without; otherwise a pattern
// wins if it matches a strict subset of the requests (method and path) that
// the other matches. So "/images/thumbnails/" beats "/images/", "GET /a"
// beats "/a", and "/a/{$}" beats "/a/". Constraints fit in between: a
// literal segment is more specific than a constrained wildcard at the same
// position, which is more specific than a plain wildcard. Patterns that
// differ only in the constraints of some wildcards are tried in the order
// they were registered: with "/{n:int}" registered before "/{h:hex}", "/42"
// goes to the first and "/ff" to the second. Differently constrained
// wildcards at the same position are allowed only in that case.
//
// Two patterns conflict if a request matches both and neither is more
// specific, as "/a/{x}" and "/{y}/b" (both match "/a/b"), "GET /{x}" and
// "/a", or "/{n:int}/a" and "/{h:hex}/{x}". Registering a pattern that
// conflicts with one already registered, or the same pattern twice (for
// the same version), panics with a [*ConflictError] that names
// both patterns, where each was registered, and a path that both match.
// An invalid pattern panics with a [*PatternError] that says where it is
// invalid and why.
//
// # Requests
//
// The router answers as ServeMux does: a request whose path is not clean
// (with "//", "." or ".." segments) is redirected to the clean path; a
// request for "/tree" when only "/tree/" matches is redirected to "/tree/";
// both with 307, so the method and body are kept. The path is split at '/'
// before unescaping, so "%2F" stays inside a segment, and every value is
// unescaped. A request that no pattern matches gets 404, or 405 with an
// Allow header if patterns match its path with other methods. CONNECT
// requests are matched with their path as it is and their host with its
// port. Redirect locations are always paths built from the cleaned request
// path, never "//host" references, so a request cannot make the router
// send a client to another host.
//
// Unlike ServeMux, the router answers OPTIONS requests for a path that has
// routes (but no OPTIONS route) with 204 No Content and an Allow header
// that lists the methods, HEAD if GET is there, and OPTIONS; 405 answers
// list OPTIONS too. [Router.NotFound], [Router.MethodNotAllowed],
// [Router.AutomaticOptions] and [Router.Redirects] replace these answers;
// [Router.DisableAutomaticOptions] restores ServeMux's behaviour.
// [Router.TrailingSlash] sets a policy for paths that have a route only
// with their trailing slash added or removed: redirect them, or serve
// them, rather than answer 404.
//
// Before calling the handler, the router sets req.Pattern to the matched
// pattern and, unless [Router.PopulatePathValues] turned it off, stores the
// wildcards for [http.Request.PathValue].
//
// # Middleware and groups
//
// Middleware has the standard form func(http.Handler) http.Handler
// ([Middleware]), and each middleware is constructed once, by the call
// that adds it. [Router.UseBeforeRouting] adds middleware that runs before
// routing, whose rewrites of the path or method routing then sees.
// [Router.Use] adds middleware that runs after routing, for every answer
// of the router: routes, 404, 405, OPTIONS, 406 and redirects; it can read
// req.Pattern and [Param], for logging or metrics by route. [Router.Group]
// makes a [Group]: a prefix, which may carry a host ("api.example.com/v1"),
// and middleware that wraps the group's routes and the router's own
// answers for the paths below the prefix, so that an authentication
// middleware answers a stranger's request for /admin/anything before the
// router says which routes exist. Groups nest, and [Router.With] gives
// middleware to single routes:
//
//	r.UseBeforeRouting(methodOverride)
//	r.Use(logRequests)
//	api := r.Group("/api", authenticate)
//	api.HandleFunc("GET /users/{id:int}", showUser)         // GET /api/users/{id:int}
//	api.With(audit).HandleFunc("DELETE /users/{id:int}", deleteUser)
//
// A request passes from one chain to the next through small handlers that
// find the next chain from req.Pattern, so composition allocates nothing
// per request. [Router.Named] names a route for [Router.Path], and
// [Group.PopulatePathValues] turns path values on or off for a group.
//
// [Router.Mount] hands a subtree to another handler, a Router included,
// with the prefix stripped from the path: with r.Mount("/orgs/{org}", h),
// h sees /orgs/acme/repos as /repos, and still reads {org} with [Param].
// A mounted Router stays part of the outer one: the outer middleware sees
// the full pattern ("GET /orgs/{org}/repos/{repo}"), [Router.Routes],
// [Router.WriteTree] and [Router.Path] see its routes, and its redirects
// keep the prefix.
//
// [Router.Handler] finds the handler and pattern for a request without
// serving it, as [http.ServeMux.Handler] does, and [Router.Allowed] gives
// the methods allowed for a request's path.
//
// # Versions
//
// Routes can have versions, chosen per request by media type, as in
// "Accept: application/vnd.acme.v2+json", or by a header of your choice
// (see [Versioning]). [Router.Version] and [Group.Version] register
// versions of a route:
//
//	r.HandleFunc("GET /users/{id}", showUser)                  // no version asked for
//	r.Version("v2").HandleFunc("GET /users/{id}", showUserV2) // v2 asked for
//
// The router finds the route as usual, then, if the route has versions,
// picks the one the request prefers (by q-value) among those it has. A
// request that asks for no version gets the unversioned route; one that
// asks only for versions the route does not have gets 406 Not Acceptable,
// or the unversioned route if [Versioning].Fallback is set. When none of
// a route's versions is acceptable, less specific patterns are tried, as
// for a route of another method. Responses from such routes carry
// "Vary: Accept" (or the header used). [RouteVersion] tells a handler
// which version it serves.
//
// # Introspection and reverse routing
//
// [Router.Routes] lists the routes with their names, methods, versions and
// middleware, for documentation or metrics; [Router.WriteTree] prints the
// tree that lookups walk. [Router.Path] builds the path of a route, given
// by name or by pattern, from wildcard values, escaping them and checking
// constraints. [Params] iterates over all the values of a request.
//
// # Allocations
//
// With path values off, serving a request allocates nothing in the router
// for static routes, routes with any number of wildcards, constrained
// wildcards, host patterns, 404, 405 and automatic OPTIONS (after the
// first 405 for a given set of methods), whatever middleware and groups
// wrap them, and [Param], [Params] and [Router.Handler] allocate nothing.
// The exceptions are the redirects, and paths whose URL.RawPath escapes a
// '/' or a '.' ("%2F", "%2E"), where an escaped wildcard value is
// unescaped into a new string, as is an escaped segment longer than 64
// bytes or checked by a constraint. A mount
// copies the request (one allocation). With path values on (the default),
// [http.Request.SetPathValue] keeps the values in a map, which costs two
// allocations for up to eight values.
//
// Routing takes no lock. Routes may be registered and settings changed
// while the router serves; once the router has served, a registration
// copies only the nodes of the lookup tables on its pattern's path, so its
// cost does not grow with the number of routes elsewhere, only with the
// size of those nodes: the siblings at each of its positions (literals,
// constrained wildcards) and the methods and versions of its path. In the
// benchmarks module (RegisterLate), a route registered once the router
// serves costs 1.3 to 1.7 times one registered before the first request
// with 10 routes, and 5.6 to 6.7 times with 100 000 routes under eight
// prefixes, whose nodes have 12 500 children each.
package cairn
