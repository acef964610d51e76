-- wrk script: the baseline, a bare Django view doing one INSERT.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"note": "bench"}'
