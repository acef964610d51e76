/* Scorebook's service worker: the table keeps scoring through a Wi-Fi outage.
 *
 * Served at /sw.js (scope: every page) by scorebook.web.views.offline, which puts a first
 * line before this file: self.SB = {version, shell: [static URLs], pages: [path patterns],
 * login, logout: paths}. The version is a hash of the static files and this file (and BUILD_ID):
 * a deploy that changes any of them makes a new worker, which takes over at once
 * (skipWaiting, clients.claim) and deletes the old caches; queue.js reloads the pages it
 * controlled, so no phone stays on stale pages.
 *
 * - The app shell (CSS, JS, icon): cached on install, served from the cache.
 * - The pages of a match (the match page, the next deal's form): network first, a copy
 *   kept for when the network is gone. Pages ask for theirs ({warm: [urls]}).
 * - Nothing else: no POST is touched (the page's queue, in IndexedDB, sends the saves),
 *   no other page is kept.
 * No rules here, and no queue: queue.js does the saving.
 */
/* global SB */
(function () {
  "use strict";
  var SHELL = "sb-shell-" + SB.version;
  var PAGES = "sb-pages-" + SB.version;
  var KEEP = 40; // pages kept: a match page and its forms, for a night's matches
  var pages = SB.pages.map(function (p) { return new RegExp(p); });

  function isPage(url) {
    return url.origin === self.location.origin && pages.some(function (re) { return re.test(url.pathname); });
  }
  function keep(request, response) {
    // A page of the match as the signed-in user saw it; never a redirect (to the login).
    if (!response || !response.ok || response.redirected || response.type !== "basic") return;
    if ((response.headers.get("Content-Type") || "").indexOf("text/html") !== 0) return;
    var copy = response.clone();
    return caches.open(PAGES).then(function (cache) {
      return cache.delete(request.url).then(function () { return cache.put(request.url, copy); }).then(function () {
        // Tonight's matches, not every match ever opened: the oldest kept pages go.
        return cache.keys().then(function (keys) {
          return Promise.all(keys.slice(0, Math.max(0, keys.length - KEEP)).map(function (k) { return cache.delete(k); }));
        });
      });
    });
  }
  function cached(url) {
    return caches.open(PAGES).then(function (cache) { return cache.match(url, {ignoreVary: true}); });
  }

  self.addEventListener("install", function (event) {
    event.waitUntil(
      caches.open(SHELL).then(function (cache) { return cache.addAll(SB.shell); }).then(function () {
        return self.skipWaiting();
      })
    );
  });
  self.addEventListener("activate", function (event) {
    event.waitUntil(
      caches.keys().then(function (names) {
        return Promise.all(names.filter(function (n) {
          return n.indexOf("sb-") === 0 && n !== SHELL && n !== PAGES;
        }).map(function (n) { return caches.delete(n); }));
      }).then(function () { return self.clients.claim(); })
    );
  });

  self.addEventListener("fetch", function (event) {
    var request = event.request;
    var url = new URL(request.url);
    if (url.origin !== self.location.origin) return;
    if (request.method !== "GET") {
      // Signing out: the pages kept for this phone's user go with them.
      if (url.pathname === SB.logout) event.waitUntil(caches.delete(PAGES));
      return;
    }
    if (SB.shell.indexOf(url.pathname) !== -1) {
      event.respondWith(caches.open(SHELL).then(function (cache) {
        return cache.match(url.pathname).then(function (hit) {
          return hit || fetch(request).then(function (response) {
            if (response.ok) cache.put(url.pathname, response.clone());
            return response;
          });
        });
      }));
      return;
    }
    if (!isPage(url)) return;
    event.respondWith(fetch(request).then(function (response) {
      if (response.redirected && new URL(response.url).pathname === SB.login) {
        // Signed out meanwhile: the pages kept for this phone's user go.
        event.waitUntil(caches.delete(PAGES));
      } else {
        event.waitUntil(Promise.resolve(keep(request, response)));
      }
      return response;
    }, function (error) {
      return cached(request.url).then(function (hit) {
        if (hit) return hit;
        throw error;
      });
    }));
  });

  self.addEventListener("message", function (event) {
    var data = event.data || {};
    if (data.warm) {
      // The pages a page will need offline: itself and the next deal's form.
      event.waitUntil(Promise.all(data.warm.map(function (href) {
        var url = new URL(href, self.location.origin);
        if (!isPage(url)) return null;
        return fetch(url.href, {credentials: "same-origin"}).then(function (response) {
          return keep(new Request(url.href), response);
        }, function () { return null; });
      })).then(function () {
        if (event.source) event.source.postMessage({warmed: data.warm});
      }));
    } else if (data.forget) {
      event.waitUntil(caches.delete(PAGES));
    } else if (data.ask === "version" && event.ports[0]) {
      event.ports[0].postMessage({version: SB.version});
    }
  });
})();
