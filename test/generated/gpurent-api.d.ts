// Generated from docs/openapi.json by `npm run openapi` (openapi-typescript); do not edit.
export interface paths {
    "/v1/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness
         * @description Answers `{"status": "ok"}` while the API runs; for load balancers and uptime checks.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This document
         * @description The OpenAPI 3.1 description of the API, as committed in docs/openapi.json.
         */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/leases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the tenant's leases, newest first
         * @description A page of the tenant's leases, newest first; pass nextCursor back as cursor for the next page.
         */
        get: operations["listLeases"];
        put?: never;
        /**
         * Ask for GPUs
         * @description Queues a lease for the GPUs asked; the lease worker places and launches it (GET the lease to follow it). The Idempotency-Key makes retries safe.
         */
        post: operations["createLease"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/leases/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A lease with its instances and cost so far
         * @description The lease, its placement, its instances with the price each pays now, and the metered cost so far.
         */
        get: operations["getLease"];
        put?: never;
        post?: never;
        /**
         * Release: terminate the instances and close the bill
         * @description Asks for the lease to be released: its instances are terminated and billing stops at their end. Releasing an ended lease changes nothing.
         */
        delete: operations["releaseLease"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/leases/{id}/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * GPU utilization, memory, temperature and power of a lease's instances
         * @description Series per instance and GPU from the CloudWatch agent, with the average, 95th percentile and maximum of each, and the health of running GPUs.
         */
        get: operations["getLeaseMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/leases/{id}/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A page of the output of a lease's task
         * @description stdout and stderr of one attempt of the task (the latest by default), oldest first, from CloudWatch Logs. Follow the output by asking again with nextToken until complete is true.
         */
        get: operations["getLeaseLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/leases/{id}/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Credentials for a Session Manager session to a lease's instances
         * @description Short-lived AWS credentials (an hour at most) that can open, resume and end Session Manager sessions to this lease's own running instances and nothing else. Each call is a LeaseSessionOpened event.
         */
        post: operations["openLeaseSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Metered usage in a time range, grouped
         * @description Instance-seconds and cost billed in the range, in total and per group (mode, lease, instance type, project, day or dimension, as groupBy says). Cost holds every dimension: compute, the volumes of the instances (storage) and data moved between regions (transfer); by dimension, storage and transfer count no instance-seconds.
         */
        get: operations["getUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/usage/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Leases that ran in a time range, as CSV (input of `npm run simulate`)
         * @description One CSV line per lease that ran in the range, with its workload, mode, instance type, GPUs, start, end and project. The range (from/to) may span at most 93 days (400 VALIDATION_FAILED naming `to` past it); without them it is this month so far. A longer period is several requests.
         */
        get: operations["exportUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/profile": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Demand profile per UTC day: GPU-hours, average and peak concurrent GPUs, wait to RUNNING, task time, queue wait, GPU utilization
         * @description Per UTC day of the range: GPU-hours, average and peak concurrent GPUs by workload and mode, the wait from request to RUNNING, task run time and wait from request to task start by workload, the wait for admission by workload with time over quota and GPU-hours refused for the account's EC2 quota, and the GPU utilization the instances' telemetry shows. The range (from/to) may span at most 93 days (400 VALIDATION_FAILED naming `to` past it); without them it is this month so far. A longer period is several requests.
         */
        get: operations["getDemandProfile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/budgets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The tenant's budgets with this month's spend, forecast and alerts
         * @description Every budget of the tenant, each measured now: this month's spend from the spend counters, the forecast to the month's end and the alerts sent.
         */
        get: operations["listBudgets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/budgets/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One budget
         * @description The budget with this month's spend, forecast and the alerts sent.
         */
        get: operations["getBudget"];
        /**
         * Create or replace a monthly budget
         * @description Alerts go to the budget alerts SNS topic once per month, threshold and basis. Raising the limit above the spend arms the thresholds no longer crossed again. `action` applies once actual spend reaches 100%.
         */
        put: operations["putBudget"];
        post?: never;
        /**
         * Delete a budget (its alerts stop; spend counters stay)
         * @description Removes the budget; no further alert or action comes from it. Spend is still counted.
         */
        delete: operations["deleteBudget"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/budgets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every tenant's budgets (operators: the token's cognito:groups must include admin)
         * @description For operators: the budgets of every tenant, measured now, by tenant and name.
         */
        get: operations["listAllBudgets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/scaling-groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The tenant's scaling groups by name: bounds, desired size, members and the last evaluation
         * @description Each group as a summary, without reading its members’ leases; GET a group for its members.
         */
        get: operations["listScalingGroups"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/scaling-groups/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A scaling group: size, members, the last decisions with their reasons and metric values
         * @description The spec, the desired and current size, each member lease, and the last decisions that changed something with the metric values behind them.
         */
        get: operations["getScalingGroup"];
        /**
         * Create a scaling group or replace its spec
         * @description Stores the spec; the scaling evaluator launches or releases member leases at its next evaluation to converge on the desired size.
         */
        put: operations["putScalingGroup"];
        post?: never;
        /**
         * Drain the group: release every member, then remove it
         * @description Releases every member lease (billed like any other release) and removes the group.
         */
        delete: operations["deleteScalingGroup"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/audit/{month}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The tenant's monthly audit (the stored one once the schedule built it on the 1st)
         * @description The month built from the daily rollups, the interruption notices, the reservations, the GPU telemetry and the planner; the current month is built to date. The month bounds what it reads: the leases created in it (or in the week before, whose wait may reach into it) and those that ran in it, never the tenant's whole history.
         */
        get: operations["getMonthlyAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/audit/{month}/report.html": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The audit as one self-contained HTML page (inline SVG charts, no script, no request)
         * @description The same audit rendered for people: one HTML page with inline SVG charts that loads nothing.
         */
        get: operations["getMonthlyAuditReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The tenant's settings
         * @description The settings in force: the lifetime of leases that ask for none.
         */
        get: operations["getSettings"];
        /**
         * Replace the tenant's settings (the default lease lifetime)
         * @description Replaces the settings; leases created before keep their own expiry.
         */
        put: operations["putSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/pools": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Admin: every pool of the GPU regions, priced and ranked for a sample request
         * @description Each pool with its price and where the price comes from, its availability mark and its rank per mode (1: what placement would try first) for the sample request the query describes.
         */
        get: operations["listPools"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/reservations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Admin: every reserved commitment with its use, in id order, paged by nextCursor
         * @description A page of the commitments with the GPUs leases hold on each; pass nextCursor back as cursor.
         */
        get: operations["listReservations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/reservations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Admin: a reserved commitment with its use
         * @description The commitment, the GPUs leases hold on it and how far its idle time is recorded.
         */
        get: operations["getReservation"];
        /**
         * Admin: create or redefine a reserved commitment
         * @description Defines the commitment after checking it against the GPU regions and the catalog; it may not shrink below the GPUs leases hold on it.
         */
        put: operations["putReservation"];
        post?: never;
        /**
         * Admin: delete a reserved commitment no lease holds
         * @description Removes the commitment; refused while a lease holds GPUs on it.
         */
        delete: operations["deleteReservation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/images/{name}/versions/{version}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Admin: register an image version (an AMI per GPU region); versions are immutable
         * @description Registers the version with its AMI in each GPU region and a launch template version for each; registering it again with the same AMIs changes nothing.
         */
        put: operations["putImageVersion"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/images/{name}/versions/{version}/promote": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Admin: make this version the one new launches use
         * @description New launches use the version from now on; running instances keep the AMI they started from.
         */
        post: operations["promoteImageVersion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/images/{name}/rollback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Admin: put the previously promoted version back (new launches only)
         * @description Makes the version promoted before the current one current again, for new launches only.
         */
        post: operations["rollbackImage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/images": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Admin: every GPU image by name, its current and previous version and every version registered
         * @description Every image, including those with versions registered but none promoted yet.
         */
        get: operations["listImages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/images/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Admin: an image, every version registered, the current one and the promotion history
         * @description The image summary with its promotion history and the current version in full.
         */
        get: operations["getImage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/idle-policy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The tenant's idle policy, the admin's, and the one in force
         * @description A lease is idle when every GPU of it stayed below belowPercent for forMinutes; the policy then does one of notify, release-interruptible-only, release.
         */
        get: operations["getIdlePolicy"];
        /**
         * Set the tenant's own idle policy (it may only tighten an admin's)
         * @description Replaces the tenant's policy. A policy that would loosen the admin's (a lower line, a longer window, a milder action, more exemptions) is refused with 409 and nothing is stored.
         */
        put: operations["putIdlePolicy"];
        post?: never;
        /**
         * Remove the tenant's own idle policy (an admin's stays in force)
         * @description Removes the tenant's policy; the admin's, if any, keeps applying.
         */
        delete: operations["deleteIdlePolicy"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/tenants/{tenantId}/idle-policy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Admin: a tenant's idle policies and the one in force
         * @description The admin's and the tenant's policy of the tenant, and the stricter of the two.
         */
        get: operations["getAdminIdlePolicy"];
        /**
         * Admin: set a tenant's idle policy, which the tenant cannot loosen or remove
         * @description Replaces the admin's policy of the tenant; the tenant's own applies only where it is stricter.
         */
        put: operations["putAdminIdlePolicy"];
        post?: never;
        /**
         * Admin: remove a tenant's admin idle policy
         * @description Removes the admin's policy; the tenant's own, if any, keeps applying.
         */
        delete: operations["deleteAdminIdlePolicy"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/spend-anomaly-settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The tenant's spend-anomaly settings
         * @description The tenant's own (medium and on when never set) and those of the projects that have their own; a project without its own follows the tenant's.
         */
        get: operations["getSpendAnomalySettings"];
        /**
         * Set the sensitivity of spend-anomaly alerts, or turn them off, for the tenant or a project
         * @description Replaces the settings of one scope (the tenant when project is absent). New tenants and projects are not alerted until a week of baseline exists.
         */
        put: operations["putSpendAnomalySettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/warm-pools": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Admin: every warm pool in name order, with its machines by state
         * @description Every pool the filler keeps, and how many of its machines are launching, stopping or ready.
         */
        get: operations["listWarmPools"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/warm-pools/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Admin: a warm pool with its machines by state
         * @description The pool’s definition and how many of its machines are launching, stopping or ready.
         */
        get: operations["getWarmPool"];
        /**
         * Admin: create or redefine a warm pool
         * @description Checks the pool against the GPU regions, the catalog, the fleet’s zones and the images, then stores it; the filler launches, initialises and stops machines up to `size`. Nothing is stored on a 400.
         */
        put: operations["putWarmPool"];
        post?: never;
        /**
         * Admin: delete a warm pool; the filler ends its machines
         * @description Removes the pool; its stopped machines are terminated on the filler’s next run, machines leases hold are not touched.
         */
        delete: operations["deleteWarmPool"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/quota": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's quota in force and its use
         * @description The tenant's own quota (or the default when an admin set none), and the GPUs and hourly spend it has admitted now.
         */
        get: operations["getQuota"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/tenants/{tenantId}/quota": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Admin: a tenant's quota in force and its use
         * @description The tenant's own quota, or the default when none is set, and what it runs now.
         */
        get: operations["getTenantQuota"];
        /**
         * Admin: set a tenant's quota
         * @description Concurrent GPUs, the sum of hourly prices, optional caps per rental mode and the weight in fair share. Leases that would exceed it wait in the queue. Nothing is stored on a 400.
         */
        put: operations["putTenantQuota"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/limits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's limits in force
         * @description requestsPerSecond: API requests counted in each UTC second across every API instance (past it: 429 RATE_LIMITED with Retry-After); maxScalingGroups: groups at once (past it: 409 SCALING_GROUP_CAP_REACHED); maxWaitingLeases: leases PENDING or QUEUED at once (past it: 429 WAITING_LEASES_CAP_REACHED with Retry-After, on POST /v1/leases). Conditions per group are bounded by 10 (400 VALIDATION_FAILED).
         */
        get: operations["getLimits"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/tenants/{tenantId}/limits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Admin: a tenant's limits in force
         * @description The tenant's own limits, or the defaults when none are set.
         */
        get: operations["getTenantLimits"];
        /**
         * Admin: set a tenant's limits
         * @description Replaces the tenant’s limits (an omitted field takes its default); every API instance applies them within a minute. Nothing is stored on a 400.
         */
        put: operations["putTenantLimits"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        CreateLeaseRequest: {
            /** @enum {string} */
            workload: "training" | "inference" | "batch";
            /** @description Whole GPUs (1-8), or 0.125, 0.25 or 0.5 of one GPU on a fractional type (g6f, gr6f) */
            gpus: number | 0.125 | 0.25 | 0.5;
            instanceType?: string;
            /** @enum {string} */
            mode?: "on-demand" | "reserved" | "spot";
            project?: string;
            /** @description Released on its own after this many minutes; default: the tenant's default, else never */
            durationMinutes?: number;
            /** @description Any instance type with this GPU model, e.g. A10G, L4, A100, H100 */
            gpuModel?: string;
            /** @description Regions the lease may run in, each once (default: every GPU region) */
            regions?: string[];
            /** @description Where the lease's data lives; pools elsewhere pay latency and transfer */
            dataRegion?: string;
            /** @description Data moved to the lease when it runs away from dataRegion */
            dataGb?: number;
            /** @description USD per hour for all the lease’s instances together */
            maxHourlyPrice?: number;
            /** @description Pin the lease to this image version (default: the default image's current version) */
            image?: string;
            /** @description Work to run on the lease once it runs (SSM Run Command); see the Task schema */
            task?: {
                image?: string;
                command: string[] | string;
                env?: {
                    [key: string]: string;
                };
                secrets?: {
                    [key: string]: string;
                };
                workdir?: string;
                maxRuntimeMinutes?: number;
                /**
                 * @description Default: "release".
                 * @enum {string}
                 */
                onExit?: "release" | "keep";
                /** @description Default: 3. */
                maxAttempts?: number;
                /** @description Default: false. */
                retryOnFailure?: boolean;
                /**
                 * Format: date-time
                 * @description Finish the work by then (a date-time with an offset); needs workMinutes
                 */
                deadline?: string;
                /** @description Minutes of work the task needs on one machine of its type */
                workMinutes?: number;
                /** @description Minutes a restart from checkpoint costs (default 5) */
                restartMinutes?: number;
            };
            /** @description 0-1000: orders the tenant's own waiting leases, highest first (never against other tenants). Default: 500. */
            priority?: number;
            /** @description How long the lease may wait in the admission queue; past it: FAILED with QUEUE_TIMEOUT. Default: 60. */
            maxWaitMinutes?: number;
        };
        Instance: {
            instanceId: string;
            instanceType: string;
            /** @enum {string} */
            mode: "on-demand" | "reserved" | "spot";
            region?: string;
            zone: string;
            /** @description The hourly price at launch (USD) */
            pricePerHourUsd: number;
            /** @description GET /v1/leases/{id} only: what the instance pays per hour now (at its end, once ended). Spot follows its pool's recorded price changes; on-demand and reserved keep the launch price. */
            priceInForce?: {
                /** @description USD, rounded to the micro-dollar */
                pricePerHourUsd: number;
                /** Format: date-time */
                since?: string;
                /**
                 * @description `launch`: the price fixed at launch; `ec2-spot-price-history`: a spot price EC2 published, recorded by the reconciler; `catalog-spot-ratio`: catalog on-demand × SPOT_CATALOG_RATIO (locally, and where EC2 publishes none)
                 * @enum {string}
                 */
                source: "launch" | "ec2-spot-price-history" | "catalog-spot-ratio";
            };
            /** Format: date-time */
            launchedAt: string;
            /** Format: date-time */
            endedAt?: string;
            billedSeconds: number;
            /** @description Every dimension: compute, its volume, the transfer once charged */
            costMicroUsd: number;
            /** @description USD, rounded to the micro-dollar */
            costUsd: number;
            /** @description The instance’s cost so far by billing dimension */
            costByDimension: {
                /** @description Exact amount in micro-dollars (1 USD = 1,000,000) */
                compute: number;
                /** @description Exact amount in micro-dollars (1 USD = 1,000,000) */
                storage: number;
                /** @description Exact amount in micro-dollars (1 USD = 1,000,000) */
                transfer: number;
            };
        };
        Lease: {
            leaseId: string;
            /** @enum {string} */
            status: "PENDING" | "QUEUED" | "RUNNING" | "RELEASING" | "RELEASED" | "FAILED" | "INTERRUPTED";
            /** @enum {string} */
            workload: "training" | "inference" | "batch";
            /** @description Whole GPUs, or 0.125, 0.25 or 0.5 of one GPU */
            gpus: number;
            instanceType: string;
            /** @enum {string} */
            requestedMode?: "on-demand" | "reserved" | "spot";
            /** @description The lease’s project label, for cost attribution and budgets */
            project?: string;
            /** @enum {string} */
            mode?: "on-demand" | "reserved" | "spot" | "mixed";
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /** Format: date-time */
            releaseRequestedAt?: string;
            /** @description Why gpurent released the lease on its own (an idle policy, with the figures) */
            releaseReason?: string;
            /** Format: date-time */
            endedAt?: string;
            failureReason?: string;
            /**
             * Format: date-time
             * @description When the lease is released on its own; absent: never
             */
            expiresAt?: string;
            gpuModel?: string;
            regions?: string[];
            dataRegion?: string;
            dataGb?: number;
            /** @description USD, rounded to the micro-dollar */
            maxHourlyPrice?: number;
            placement?: components["schemas"]["Placement"];
            /**
             * @description warm: started stopped machines of a warm pool; cold: launched
             * @enum {string}
             */
            start?: "warm" | "cold";
            /** @description From the lease’s creation to RUNNING */
            secondsToRunning?: number;
            /** @description Every dimension: compute, storage and transfer */
            costMicroUsd: number;
            /** @description USD, rounded to the micro-dollar */
            costUsd: number;
            /** @description The lease’s cost so far by billing dimension */
            costByDimension: {
                /** @description Exact amount in micro-dollars (1 USD = 1,000,000) */
                compute: number;
                /** @description Exact amount in micro-dollars (1 USD = 1,000,000) */
                storage: number;
                /** @description Exact amount in micro-dollars (1 USD = 1,000,000) */
                transfer: number;
            };
            instances: components["schemas"]["Instance"][];
            task?: components["schemas"]["Task"];
            /** @description 0-1000: the order of the tenant's own waiting leases */
            priority?: number;
            /** @description How long it may wait for admission */
            maxWaitMinutes?: number;
            /** @description While QUEUED: where the lease stands in the admission queue */
            queue?: {
                /**
                 * @description Why it waits: its tenant's quota, no capacity in any allowed pool, or the account's EC2 vCPU quota
                 * @enum {string}
                 */
                reason: "quota" | "capacity" | "account-quota";
                /** @description 1 = the next to be admitted */
                position: number;
                /**
                 * Format: date-time
                 * @description Absent when no release known now lets it in before maxWaitMinutes
                 */
                estimatedStartAt?: string;
                /** @description What the estimate rests on: fits-now, lease-expiry, declared-runtime, history:tenant-workload, history:workload, default (an hour per lease), outlived-history, after-refusal (EC2 refused it; tried again after the back-off), times-out or no-known-release */
                estimateBasis: string;
                /**
                 * Format: date-time
                 * @description When it stops waiting: FAILED with QUEUE_TIMEOUT unless admitted by then (maxWaitMinutes after it joined the queue)
                 */
                waitEndsAt?: string;
            };
        };
        /** @description The lease's task: what runs on it and where it is (WAITING for the machine until it runs) */
        Task: {
            /** @enum {string} */
            status: "WAITING" | "STARTING" | "RUNNING" | "SUCCEEDED" | "FAILED" | "STOPPED";
            image?: string;
            command: string | string[];
            /** @description Values of names that look secret (KEY, SECRET, TOKEN, PASSWORD, CREDENTIAL) show as **** */
            env: {
                [key: string]: string;
            };
            /** @description Names and the references they are read from on the instance; never values */
            secrets: {
                [key: string]: string;
            };
            workdir?: string;
            maxRuntimeMinutes?: number;
            /** @enum {string} */
            onExit: "release" | "keep";
            maxAttempts: number;
            retryOnFailure: boolean;
            /** @description The current attempt, 1-based; 0 before the first */
            attempt: number;
            exitCode?: number;
            /** Format: date-time */
            startedAt?: string;
            /** Format: date-time */
            endedAt?: string;
            failureReason?: string;
            attempts: {
                attempt: number;
                instanceId: string;
                commandId?: string;
                /** @enum {string} */
                status: "SENDING" | "SENT" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED" | "INTERRUPTED";
                /** Format: date-time */
                startedAt?: string;
                /** Format: date-time */
                endedAt?: string;
                exitCode?: number;
            }[];
            /**
             * Format: date-time
             * @description Finish the work by then
             */
            deadline?: string;
            /** @description Minutes of work on one machine of its type */
            workMinutes?: number;
            /** @description Minutes a restart from checkpoint costs */
            restartMinutes?: number;
            /** @description GET /v1/leases/{id} only: the work done so far */
            progress?: {
                /** @description Work in the latest checkpoint, as the deadline policy's latest decision read it */
                savedMinutes: number;
                /** @description Work since, lost if interrupted */
                unsavedMinutes: number;
                /** @description Saved work as a share of workMinutes */
                percent: number;
            };
            /** @description Minutes the job could still lose before it must run on-demand; negative once it must; absent once the task ended */
            slackMinutes?: number;
            /** @description The deadline policy's current decision, in words; once the task ended, when it ended against the deadline */
            decision?: string;
        };
        /** @description Where the provisioner placed the lease, and why (also in the LeaseRunning event) */
        Placement: {
            region: string;
            zone: string;
            instanceType: string;
            instances: number;
            /** @enum {string} */
            mode: "on-demand" | "reserved" | "spot";
            /** @description USD, rounded to the micro-dollar */
            hourlyUsd: number;
            /** @description Mode decision, pool choice and any pools that refused capacity */
            reason: string;
        };
        LeaseGpuMetrics: {
            leaseId: string;
            /** Format: date-time */
            from: string;
            /** Format: date-time */
            to: string;
            /** @enum {integer} */
            period: 60 | 300 | 3600;
            instances: {
                instanceId?: string;
                gpus?: {
                    index?: number;
                    utilization?: {
                        unit?: string;
                        avg?: number | null;
                        /** @description 95th percentile of the period values (nearest rank) */
                        p95?: number | null;
                        max?: number | null;
                        datapoints?: {
                            /** Format: date-time */
                            at?: string;
                            value?: number;
                        }[];
                    };
                    memoryUsed?: {
                        unit?: string;
                        avg?: number | null;
                        /** @description 95th percentile of the period values (nearest rank) */
                        p95?: number | null;
                        max?: number | null;
                        datapoints?: {
                            /** Format: date-time */
                            at?: string;
                            value?: number;
                        }[];
                    };
                    temperature?: {
                        unit?: string;
                        avg?: number | null;
                        /** @description 95th percentile of the period values (nearest rank) */
                        p95?: number | null;
                        max?: number | null;
                        datapoints?: {
                            /** Format: date-time */
                            at?: string;
                            value?: number;
                        }[];
                    };
                    power?: {
                        unit?: string;
                        avg?: number | null;
                        /** @description 95th percentile of the period values (nearest rank) */
                        p95?: number | null;
                        max?: number | null;
                        datapoints?: {
                            /** Format: date-time */
                            at?: string;
                            value?: number;
                        }[];
                    };
                    /** @description As of `to`, for running GPUs: hot above the limit (85 °C), silent after 5 minutes without data */
                    health?: {
                        /** @enum {string} */
                        status?: "ok" | "hot" | "silent";
                        reason?: string;
                    };
                }[];
            }[];
        };
        LeaseLogs: {
            leaseId: string;
            /** @description The attempt read; absent before the first starts */
            attempt?: number;
            /** @enum {string} */
            taskStatus: "WAITING" | "STARTING" | "RUNNING" | "SUCCEEDED" | "FAILED" | "STOPPED";
            exitCode?: number;
            events: {
                /** Format: date-time */
                at?: string;
                /** @enum {string} */
                stream?: "stdout" | "stderr";
                message?: string;
            }[];
            /** @description Ask again with it for what was written since; it is there even at the end */
            nextToken: string;
            /** @description The attempt is over and nothing more was found: a follower can stop */
            complete: boolean;
        };
        LeaseSession: {
            leaseId: string;
            /**
             * Format: date-time
             * @description When the credentials stop working (at most an hour)
             */
            expiresAt: string;
            credentials: {
                accessKeyId?: string;
                secretAccessKey?: string;
                sessionToken?: string;
            };
            instances: {
                instanceId?: string;
                region?: string;
                /** @description The AWS CLI command that opens the session */
                command?: string;
            }[];
            howTo: string;
        };
        /** @description Read from daily rollups written with every charge; the range is widened to the whole UTC days it touches, and from/to say which. */
        Usage: {
            /** Format: date-time */
            from: string;
            /** Format: date-time */
            to: string;
            /** @enum {string} */
            granularity: "day";
            /** @enum {string} */
            groupBy: "mode" | "lease" | "instanceType" | "project" | "day" | "dimension";
            /** @description Instance-seconds billed (a multi-GPU instance counts once; GPU-hours are in /v1/profile) */
            seconds: number;
            /** @description Exact amount in micro-dollars (1 USD = 1,000,000) */
            costMicroUsd: number;
            /** @description USD, rounded to the micro-dollar */
            costUsd: number;
            /** @description What the billed seconds of GPUs below the idle line cost (the waste ledger; part of costMicroUsd) */
            idleMicroUsd: number;
            groups: {
                key: string;
                /** @description Instance-seconds billed */
                seconds: number;
                /** @description Exact amount in micro-dollars (1 USD = 1,000,000) */
                costMicroUsd: number;
                /** @description USD, rounded to the micro-dollar */
                costUsd: number;
                /** @description Idle cost of the group; absent for groupBy mode and instanceType, which the waste ledger does not keep */
                idleMicroUsd?: number;
            }[];
        };
        PutBudgetRequest: {
            monthlyLimitUsd: number;
            project?: string;
            /** @description Default: [50,80,100]. */
            thresholds?: number[];
            /**
             * @description Default: "both".
             * @enum {string}
             */
            basis?: "actual" | "forecast" | "both";
            /**
             * @description Default: "notify".
             * @enum {string}
             */
            action?: "notify" | "block-new-leases" | "stop-interruptible";
        };
        /** @description A monthly budget with this month’s spend (from the spend counters metering keeps), forecast and alerts. */
        Budget: {
            name: string;
            tenantId: string;
            /** @description Only leases with this label count; absent: the whole tenant */
            project?: string;
            /** @description USD, rounded to the micro-dollar */
            monthlyLimitUsd: number;
            /** @description Exact amount in micro-dollars (1 USD = 1,000,000) */
            limitMicroUsd: number;
            /** @description Percent of the limit */
            thresholds: number[];
            /** @enum {string} */
            basis: "actual" | "forecast" | "both";
            /** @enum {string} */
            action: "notify" | "block-new-leases" | "stop-interruptible";
            revision: number;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /** @description The month (UTC) the figures are for */
            month: string;
            /** @description Exact amount in micro-dollars (1 USD = 1,000,000) */
            spendMicroUsd: number;
            /** @description USD, rounded to the micro-dollar */
            spendUsd: number;
            /** @description Exact amount in micro-dollars (1 USD = 1,000,000) */
            forecastMicroUsd: number;
            /** @description USD, rounded to the micro-dollar */
            forecastUsd: number;
            /** @description Spend so far as a percentage of the limit */
            percentUsed: number;
            forecastMethod: {
                description: string;
                /** @description Exact amount in micro-dollars (1 USD = 1,000,000) */
                runRatePerHourMicroUsd: number;
                /** @description USD, rounded to the micro-dollar */
                runRatePerHourUsd: number;
                hoursLeft: number;
            };
            thresholdsCrossed: {
                threshold: number;
                /** @enum {string} */
                basis: "actual" | "forecast";
                /** Format: date-time */
                crossedAt: string;
                /** @description Exact amount in micro-dollars (1 USD = 1,000,000) */
                valueMicroUsd: number;
                /** @description USD, rounded to the micro-dollar */
                valueUsd: number;
                /** @description The SNS message attribute alertId; deduplicate on it */
                alertId: string;
                /**
                 * Format: date-time
                 * @description Absent while the alert is claimed but not yet on the topic
                 */
                sentAt?: string;
            }[];
            alertsSent: number;
            actionTaken?: {
                /** @enum {string} */
                action: "notify" | "block-new-leases" | "stop-interruptible";
                /** Format: date-time */
                at: string;
                /** Format: date-time */
                sentAt?: string;
            };
            /** @description PUT only: the alerts of this month the change armed again */
            rearmed?: string[];
        };
        ScalingGroupSummary: {
            name: string;
            /** @enum {string} */
            status: "ACTIVE" | "DELETING";
            instanceType: string;
            workload: string;
            min: number;
            max: number;
            /** @description The size the group converges to */
            desired: number;
            /** @description Member leases recorded on the group (any status) */
            members: number;
            lastEvaluation?: {
                /** Format: date-time */
                at: string;
                /** @enum {string} */
                action: "scale-out" | "scale-in" | "none";
                from: number;
                to: number;
                /** @description Which rule held (or why none did) and the datapoints behind it; the members waiting in the admission queue, with reason and position */
                reason: string;
                /** @description Members whose leases wait in the admission queue (their tenant’s quota, capacity or the account’s EC2 quota): the group counts them as asked for and adds none while any waits */
                waiting?: {
                    leaseId: string;
                    /**
                     * @description Why it waits: its tenant's quota, no capacity in any allowed pool, or the account's EC2 vCPU quota
                     * @enum {string}
                     */
                    reason: "quota" | "capacity" | "account-quota";
                    /** @description 1 = the next to be admitted */
                    position: number;
                    /**
                     * Format: date-time
                     * @description Absent when no release known now lets it in before maxWaitMinutes
                     */
                    estimatedStartAt?: string;
                    /** @description What the estimate rests on: fits-now, lease-expiry, declared-runtime, history:tenant-workload, history:workload, default (an hour per lease), outlived-history, after-refusal (EC2 refused it; tried again after the back-off), times-out or no-known-release */
                    estimateBasis: string;
                    /**
                     * Format: date-time
                     * @description When it stops waiting: FAILED with QUEUE_TIMEOUT unless admitted by then (maxWaitMinutes after it joined the queue)
                     */
                    waitEndsAt?: string;
                }[];
            };
            /** Format: date-time */
            updatedAt: string;
        };
        ScalingGroupSpec: {
            instanceType: string;
            /**
             * @description Default: "inference".
             * @enum {string}
             */
            workload?: "training" | "inference" | "batch";
            min: number;
            max: number;
            desired?: number;
            /** @description Default: 0. */
            onDemandBase?: number;
            /** @description Default: false. */
            spotAboveBase?: boolean;
            scaleOut?: {
                /**
                 * @description Default: "all".
                 * @enum {string}
                 */
                match?: "all" | "any";
                conditions: ({
                    /** @enum {string} */
                    metric: "gpuUtilization" | "gpuMemoryUsed" | "gpuTemperature" | "gpuPower";
                    /**
                     * @description Default: "Average".
                     * @enum {string}
                     */
                    statistic?: "Average" | "Maximum" | "Minimum";
                    /** @description Default: 3. */
                    sustainedFor?: number;
                    outOf?: number;
                    /** @enum {string} */
                    comparison: ">" | ">=" | "<" | "<=";
                    threshold: number;
                } | {
                    /** @constant */
                    metric: "custom";
                    /** @description One of the tenant's own namespaces, gpurent/<tenant>/… (any other is refused) */
                    namespace: string;
                    name: string;
                    /** @description Default: {}. */
                    dimensions?: {
                        [key: string]: string;
                    };
                    statistic: string;
                    /** @description Default: 3. */
                    sustainedFor?: number;
                    outOf?: number;
                    /** @enum {string} */
                    comparison: ">" | ">=" | "<" | "<=";
                    threshold: number;
                })[];
                /** @description Default: 1. */
                step?: number;
                /** @description Default: 300. */
                cooldownSeconds?: number;
            };
            scaleIn?: {
                /**
                 * @description Default: "all".
                 * @enum {string}
                 */
                match?: "all" | "any";
                conditions: ({
                    /** @enum {string} */
                    metric: "gpuUtilization" | "gpuMemoryUsed" | "gpuTemperature" | "gpuPower";
                    /**
                     * @description Default: "Average".
                     * @enum {string}
                     */
                    statistic?: "Average" | "Maximum" | "Minimum";
                    /** @description Default: 3. */
                    sustainedFor?: number;
                    outOf?: number;
                    /** @enum {string} */
                    comparison: ">" | ">=" | "<" | "<=";
                    threshold: number;
                } | {
                    /** @constant */
                    metric: "custom";
                    /** @description One of the tenant's own namespaces, gpurent/<tenant>/… (any other is refused) */
                    namespace: string;
                    name: string;
                    /** @description Default: {}. */
                    dimensions?: {
                        [key: string]: string;
                    };
                    statistic: string;
                    /** @description Default: 3. */
                    sustainedFor?: number;
                    outOf?: number;
                    /** @enum {string} */
                    comparison: ">" | ">=" | "<" | "<=";
                    threshold: number;
                })[];
                /** @description Default: 1. */
                step?: number;
                /** @description Default: 600. */
                cooldownSeconds?: number;
            };
            /** @description Default: 300. */
            instanceWarmupSeconds?: number;
        };
        ScalingGroup: {
            name: string;
            /** @enum {string} */
            status: "ACTIVE" | "DELETING";
            spec: components["schemas"]["ScalingGroupSpec"];
            /** @description The size the group converges to */
            desired: number;
            /** @description Members pending or running, booting ones included */
            size: number;
            members: {
                leaseId: string;
                /** @enum {string} */
                status: "PENDING" | "QUEUED" | "RUNNING" | "RELEASING" | "RELEASED" | "FAILED" | "INTERRUPTED";
                /** @enum {string} */
                mode: "on-demand" | "reserved" | "spot";
                /** @description Within its warm-up: never removed, metrics not judged */
                booting: boolean;
                /** Format: date-time */
                createdAt: string;
                /** Format: date-time */
                launchedAt?: string;
                instanceIds: string[];
                /** @description While QUEUED: where the member’s lease stands in the admission queue */
                queue?: {
                    /**
                     * @description Why it waits: its tenant's quota, no capacity in any allowed pool, or the account's EC2 vCPU quota
                     * @enum {string}
                     */
                    reason: "quota" | "capacity" | "account-quota";
                    /** @description 1 = the next to be admitted */
                    position: number;
                    /**
                     * Format: date-time
                     * @description Absent when no release known now lets it in before maxWaitMinutes
                     */
                    estimatedStartAt?: string;
                    /** @description What the estimate rests on: fits-now, lease-expiry, declared-runtime, history:tenant-workload, history:workload, default (an hour per lease), outlived-history, after-refusal (EC2 refused it; tried again after the back-off), times-out or no-known-release */
                    estimateBasis: string;
                    /**
                     * Format: date-time
                     * @description When it stops waiting: FAILED with QUEUE_TIMEOUT unless admitted by then (maxWaitMinutes after it joined the queue)
                     */
                    waitEndsAt?: string;
                };
            }[];
            lastEvaluation?: {
                /** Format: date-time */
                at: string;
                /** @enum {string} */
                action: "scale-out" | "scale-in" | "none";
                from: number;
                to: number;
                /** @description Which rule held (or why none did) and the datapoints behind it; the members waiting in the admission queue, with reason and position */
                reason: string;
                /** @description Members whose leases wait in the admission queue (their tenant’s quota, capacity or the account’s EC2 quota): the group counts them as asked for and adds none while any waits */
                waiting?: {
                    leaseId: string;
                    /**
                     * @description Why it waits: its tenant's quota, no capacity in any allowed pool, or the account's EC2 vCPU quota
                     * @enum {string}
                     */
                    reason: "quota" | "capacity" | "account-quota";
                    /** @description 1 = the next to be admitted */
                    position: number;
                    /**
                     * Format: date-time
                     * @description Absent when no release known now lets it in before maxWaitMinutes
                     */
                    estimatedStartAt?: string;
                    /** @description What the estimate rests on: fits-now, lease-expiry, declared-runtime, history:tenant-workload, history:workload, default (an hour per lease), outlived-history, after-refusal (EC2 refused it; tried again after the back-off), times-out or no-known-release */
                    estimateBasis: string;
                    /**
                     * Format: date-time
                     * @description When it stops waiting: FAILED with QUEUE_TIMEOUT unless admitted by then (maxWaitMinutes after it joined the queue)
                     */
                    waitEndsAt?: string;
                }[];
            };
            /** @description The last decisions that changed something, newest first */
            decisions: {
                /** Format: date-time */
                at: string;
                /** @enum {string} */
                action: "scale-out" | "scale-in" | "none";
                from: number;
                to: number;
                /** @description Which rule held (or why none did) and the datapoints behind it; the members waiting in the admission queue, with reason and position */
                reason: string;
                /** @description Members whose leases wait in the admission queue (their tenant’s quota, capacity or the account’s EC2 quota): the group counts them as asked for and adds none while any waits */
                waiting?: {
                    leaseId: string;
                    /**
                     * @description Why it waits: its tenant's quota, no capacity in any allowed pool, or the account's EC2 vCPU quota
                     * @enum {string}
                     */
                    reason: "quota" | "capacity" | "account-quota";
                    /** @description 1 = the next to be admitted */
                    position: number;
                    /**
                     * Format: date-time
                     * @description Absent when no release known now lets it in before maxWaitMinutes
                     */
                    estimatedStartAt?: string;
                    /** @description What the estimate rests on: fits-now, lease-expiry, declared-runtime, history:tenant-workload, history:workload, default (an hour per lease), outlived-history, after-refusal (EC2 refused it; tried again after the back-off), times-out or no-known-release */
                    estimateBasis: string;
                    /**
                     * Format: date-time
                     * @description When it stops waiting: FAILED with QUEUE_TIMEOUT unless admitted by then (maxWaitMinutes after it joined the queue)
                     */
                    waitEndsAt?: string;
                }[];
                observations: {
                    /** @enum {string} */
                    rule: "scaleOut" | "scaleIn";
                    metric: string;
                    values: number[];
                }[];
                launched: string[];
                released: string[];
            }[];
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        /** @description A tenant's month: cost by mode from the daily rollups, spot savings, reserved capacity, interruptions, concurrency and the planner's recommendation. */
        MonthlyAudit: {
            tenantId: string;
            month: string;
            /** Format: date-time */
            generatedAt: string;
            /** @description False while the month runs: figures are month to date */
            complete: boolean;
            /** @description Exact amount in micro-dollars (1 USD = 1,000,000) */
            costMicroUsd: number;
            /** @description Instance-seconds metered */
            seconds: number;
            /** @description The month's cost by what it paid for: instance time, the instances' volumes, data moved between regions */
            byDimension: {
                /** @description Exact amount in micro-dollars (1 USD = 1,000,000) */
                compute: number;
                /** @description Exact amount in micro-dollars (1 USD = 1,000,000) */
                storage: number;
                /** @description Exact amount in micro-dollars (1 USD = 1,000,000) */
                transfer: number;
            };
            /** @description The fleet's stopped machines' volumes (the operator's overhead, in no tenant's cost) */
            fleetOverhead: {
                /** @enum {string} */
                scope?: "fleet";
                /** @description Exact amount in micro-dollars (1 USD = 1,000,000) */
                storageMicroUsd?: number;
            };
            byMode: {
                /** @enum {string} */
                mode?: "on-demand" | "reserved" | "spot";
                seconds?: number;
                /** @description Exact amount in micro-dollars (1 USD = 1,000,000) */
                costMicroUsd?: number;
                /** @description Of the month’s cost, 0-1 */
                share?: number;
            }[];
            daily: {
                /** Format: date */
                day?: string;
                costMicroUsd?: {
                    /** @description Exact amount in micro-dollars (1 USD = 1,000,000) */
                    "on-demand"?: number;
                    /** @description Exact amount in micro-dollars (1 USD = 1,000,000) */
                    reserved?: number;
                    /** @description Exact amount in micro-dollars (1 USD = 1,000,000) */
                    spot?: number;
                };
            }[];
            /** @description Spot seconds at the catalog on-demand price of each instance type, minus what those seconds cost on spot (compute alone: volumes and transfers cost the same in either mode) */
            spotSavings: {
                spotSeconds?: number;
                /** @description Exact amount in micro-dollars (1 USD = 1,000,000) */
                spotMicroUsd?: number;
                /** @description Exact amount in micro-dollars (1 USD = 1,000,000) */
                onDemandMicroUsd?: number;
                /** @description Exact amount in micro-dollars (1 USD = 1,000,000) */
                savingMicroUsd?: number;
                region?: string;
            };
            /** @description The fleet's reserved commitments (shared by every tenant, the same in every audit): idle time recorded at each metering tick, at each commitment's effective rate */
            reserved: {
                /** @enum {string} */
                source?: "reservations";
                /** @enum {string} */
                scope?: "fleet";
                /** @description Commitments active in the month */
                commitments?: number;
                /** @description GPUs those commitments hold */
                gpus?: number;
                idleGpuHours?: number;
                /** @description Exact amount in micro-dollars (1 USD = 1,000,000) */
                idleMicroUsd?: number;
            };
            /** @description The tenant's instances spot reclaimed (or EC2 ended unasked) in the month */
            interruptions: {
                /** @enum {string} */
                source?: "interruption-notices";
                count?: number;
                byWorkload?: {
                    training?: number;
                    inference?: number;
                    batch?: number;
                };
            };
            /** @description Peak GPUs held at once in each hour from fromMs */
            concurrency: {
                fromMs?: number;
                stepMs?: number;
                gpus?: number[];
            };
            /** @description GPU utilization (%) of the tenant's GPUs from the CloudWatch agent's nvidia_gpu metrics */
            utilization: {
                /** @enum {string} */
                source?: "cloudwatch-agent";
                /** @description How the figures are computed */
                method?: string;
                /** @description The average of every per-minute utilization sample of every GPU (each GPU-minute weighs the same); percent is null and telemetry "none" when no GPU sent a sample: no telemetry, never 0% */
                month?: {
                    percent: number | null;
                    /** @enum {string} */
                    telemetry: "complete" | "partial" | "none";
                    /** @description GPU-hours the samples cover */
                    measuredGpuHours: number;
                    /** @description GPUs that ran and sent no sample */
                    gpusWithoutTelemetry: number;
                };
                /** @description Hours 0-23 UTC; null for an hour no GPU sent a sample in */
                byHourOfDay?: (number | null)[];
            };
            /** @description The tasks of the tenant's leases (from the task state on each lease): seconds run, and the wait in seconds from lease request to task start of the leases requested in the month / that day, overall and by workload */
            tasks: {
                /** @enum {string} */
                source?: "lease-tasks";
                month?: components["schemas"]["TaskTime"];
                daily?: ({
                    /** Format: date */
                    day?: string;
                } & components["schemas"]["TaskTime"])[];
            };
            /** @description The leases' waits for admission, from each lease's queue history: the month and each day */
            queue: {
                /** @enum {string} */
                source?: "lease-queue-history";
                month?: components["schemas"]["QueueFigures"];
                daily?: ({
                    /** Format: date */
                    day?: string;
                } & components["schemas"]["QueueFigures"])[];
            };
            /** @description What the tenant's GPUs cost while idle (every GPU of a lease below its policy's line), from the waste ledger's daily rollups: the month, by project (dearest first, '-' for no project) and the five idlest leases; share is of the month's cost */
            idle: {
                /** @enum {string} */
                source?: "idle-ledger";
                idleGpuHours?: number;
                /** @description Exact amount in micro-dollars (1 USD = 1,000,000) */
                idleMicroUsd?: number;
                share?: number;
                byProject?: {
                    project?: string;
                    idleGpuHours?: number;
                    /** @description Exact amount in micro-dollars (1 USD = 1,000,000) */
                    idleMicroUsd?: number;
                }[];
                idlestLeases?: {
                    leaseId?: string;
                    project?: string;
                    idleGpuHours?: number;
                    /** @description Exact amount in micro-dollars (1 USD = 1,000,000) */
                    idleMicroUsd?: number;
                }[];
            };
            /** @description What idle reserved capacity, idle GPUs (past 20% of the cost) and interruptions mean for the tenant */
            findings: string[];
            recommendation: components["schemas"]["AuditRecommendation"] | null;
        };
        /** @description The month replayed through the planner with the live policies, at the planner’s model prices (every GPU a p3.2xlarge, V100 spot traces; see model.note): savings compare the month as it ran with the policy at those prices. */
        AuditRecommendation: {
            model: {
                instanceType?: string;
                /** @description Exact amount in micro-dollars (1 USD = 1,000,000) */
                onDemandMicroUsdPerHour?: number;
                /** @description Exact amount in micro-dollars (1 USD = 1,000,000) */
                reservedMicroUsdPerHour?: number;
                note?: string;
            };
            /** @description Reserved GPUs to commit for the next 30-day term */
            reservedGpus: number;
            reservedReason: string;
            /** @description Exact amount in micro-dollars (1 USD = 1,000,000) */
            reservedSavingMicroUsd: number;
            spotCandidates: {
                /** @enum {string} */
                workload?: "training" | "inference" | "batch";
                leases?: number;
                gpuHours?: number;
            }[];
            /** @description Exact amount in micro-dollars (1 USD = 1,000,000) */
            asRanMicroUsd: number;
            /** @description Exact amount in micro-dollars (1 USD = 1,000,000) */
            policyMicroUsd: number;
            /** @description Exact amount in micro-dollars (1 USD = 1,000,000) */
            policySavingMicroUsd: number;
            /** @description Exact amount in micro-dollars (1 USD = 1,000,000) */
            recommendedMicroUsd: number;
            /** @description Exact amount in micro-dollars (1 USD = 1,000,000) */
            hindsightMicroUsd: number;
            savingShare: number;
            /** @description Exact amount in micro-dollars (1 USD = 1,000,000) */
            estimatedSavingOfPaidMicroUsd: number;
        };
        /** @description Seconds the tasks ran, and the wait (seconds) from lease request to task start */
        TaskTime: {
            runSeconds: number;
            waitSeconds: {
                /** @description Tasks started, of the leases requested in the window */
                tasks?: number;
                p50?: number | null;
                p95?: number | null;
            };
            /** @description The same figures per workload that had a task run or start */
            byWorkload: {
                training?: {
                    runSeconds?: number;
                    waitSeconds?: {
                        /** @description Tasks started, of the leases requested in the window */
                        tasks?: number;
                        p50?: number | null;
                        p95?: number | null;
                    };
                };
                inference?: {
                    runSeconds?: number;
                    waitSeconds?: {
                        /** @description Tasks started, of the leases requested in the window */
                        tasks?: number;
                        p50?: number | null;
                        p95?: number | null;
                    };
                };
                batch?: {
                    runSeconds?: number;
                    waitSeconds?: {
                        /** @description Tasks started, of the leases requested in the window */
                        tasks?: number;
                        p50?: number | null;
                        p95?: number | null;
                    };
                };
            };
        };
        /** @description A window's waits for admission: wait p50/p95, time waiting on the tenant's quota, GPU-hours waiting on the account's EC2 quota */
        QueueFigures: {
            /** @description The wait for admission (admitted-at minus queued-at, seconds) of the leases requested in the window, overall and by workload */
            waitSeconds: {
                /** @description Leases requested in the window whose wait is known: admitted at once (0), admitted after waiting, or timed out (counted at their maxWait) */
                leases?: number;
                /** @description Of those, the ones that failed with QUEUE_TIMEOUT */
                timedOut?: number;
                /** @description Still waiting, or released while they waited (not in p50/p95) */
                unfinished?: number;
                p50?: number | null;
                p95?: number | null;
                byWorkload?: {
                    training?: {
                        /** @description Leases requested in the window whose wait is known: admitted at once (0), admitted after waiting, or timed out (counted at their maxWait) */
                        leases?: number;
                        /** @description Of those, the ones that failed with QUEUE_TIMEOUT */
                        timedOut?: number;
                        /** @description Still waiting, or released while they waited (not in p50/p95) */
                        unfinished?: number;
                        p50?: number | null;
                        p95?: number | null;
                    };
                    inference?: {
                        /** @description Leases requested in the window whose wait is known: admitted at once (0), admitted after waiting, or timed out (counted at their maxWait) */
                        leases?: number;
                        /** @description Of those, the ones that failed with QUEUE_TIMEOUT */
                        timedOut?: number;
                        /** @description Still waiting, or released while they waited (not in p50/p95) */
                        unfinished?: number;
                        p50?: number | null;
                        p95?: number | null;
                    };
                    batch?: {
                        /** @description Leases requested in the window whose wait is known: admitted at once (0), admitted after waiting, or timed out (counted at their maxWait) */
                        leases?: number;
                        /** @description Of those, the ones that failed with QUEUE_TIMEOUT */
                        timedOut?: number;
                        /** @description Still waiting, or released while they waited (not in p50/p95) */
                        unfinished?: number;
                        p50?: number | null;
                        p95?: number | null;
                    };
                };
            };
            /** @description Time in the window the tenant's leases waited on its own quota: summed over leases, and wall-clock time with at least one waiting */
            overQuota: {
                leaseSeconds?: number;
                wallSeconds?: number;
            };
            /** @description Waits in the window on the account's EC2 vCPU quota, overall and by region and instance family (null: not recorded): what to ask AWS for */
            accountQuota: {
                /** @description GPUs × hours leases waited on the account quota */
                gpuHours?: number;
                /** @description The most GPUs waiting on it at once */
                peakGpus?: number;
                /** @description Of those, the waits that ended in a time-out (demand never served) */
                timedOut?: {
                    leases?: number;
                    gpuHours?: number;
                };
                byPool?: {
                    region?: string | null;
                    /** @enum {string|null} */
                    family?: "G" | "P" | null;
                    /** @description GPUs × hours leases waited on the account quota */
                    gpuHours?: number;
                    /** @description The most GPUs waiting on it at once */
                    peakGpus?: number;
                    /** @description Of those, the waits that ended in a time-out (demand never served) */
                    timedOut?: {
                        leases?: number;
                        gpuHours?: number;
                    };
                }[];
            };
        };
        TenantSettings: {
            /** @description Lifetime of leases that ask for none; null: they run until released */
            defaultLeaseDurationMinutes: number | null;
        };
        Pool: {
            region: string;
            zone: string;
            instanceType: string;
            /** @enum {string} */
            mode: "on-demand" | "spot";
            /** @description A fraction for fractional-GPU types (g6f, gr6f) */
            gpusPerInstance: number;
            /** @description USD, rounded to the micro-dollar */
            pricePerHourUsd: number;
            /** @enum {string} */
            priceSource: "catalog" | "ec2-spot-price-history" | "catalog-spot-ratio" | "commitment";
            /** @enum {string} */
            mark: "available" | "no-capacity" | "refused-recently";
            /** @description Order choosePool tries the pool in for the sample, per mode */
            rank: number | null;
            instances?: number;
            /** @description USD, rounded to the micro-dollar */
            hourlyUsd?: number;
            /** @description Hourly cost + latency penalty + data transfer, USD */
            scoreUsd?: number;
            notEligible?: string;
        };
        ReservationRequest: {
            instanceType: string;
            region: string;
            zone: string;
            count: number;
            /** @description USD per instance-hour (default: the catalog 1-year reserved rate) */
            hourlyRate?: number;
            /** Format: date-time */
            start: string;
            /** Format: date-time */
            end: string;
            capacityReservationId?: string;
        };
        Reservation: {
            id: string;
            instanceType: string;
            region: string;
            zone: string;
            count: number;
            /** @description Whole for most types; a fraction for fractional-GPU types (g6f, gr6f) */
            gpusPerInstance: number;
            /** @description USD, rounded to the micro-dollar */
            hourlyRateUsd: number;
            /** Format: date-time */
            start: string;
            /** Format: date-time */
            end: string;
            capacityReservationId?: string;
            /** @description count × gpusPerInstance */
            committedGpus: number;
            /** @description GPUs leases hold on it now */
            usedGpus: number;
            leases: number;
            /**
             * Format: date-time
             * @description Idle reserved time is recorded up to here
             */
            idleRecordedUntil: string;
        };
        ImageVersionRequest: {
            /** @description The AMI of this version in each GPU region, e.g. {"us-east-1": "ami-0123456789abcdef0"} */
            amis: {
                [key: string]: string;
            };
        };
        ImageVersion: {
            name: string;
            version: string;
            amis: {
                [key: string]: string;
            };
            launchTemplateVersions: {
                [key: string]: string;
            };
            /** Format: date-time */
            createdAt: string;
        };
        ImageChange: {
            name: string;
            current?: string;
            previous?: string;
            /** @description What the change does: new launches only */
            note: string;
        };
        ImageSummary: {
            name: string;
            /** @description The version new launches use; null until promoted */
            current: string | null;
            /** @description The version a rollback brings back */
            previous: string | null;
            /** @description Every registered version, oldest first */
            versions: {
                version: string;
                current: boolean;
                regions: string[];
                /** Format: date-time */
                createdAt: string;
            }[];
        };
        IdlePolicyRequest: {
            /** @description Default: 5. */
            belowPercent?: number;
            /** @description Default: 30. */
            forMinutes?: number;
            /** @enum {string} */
            action: "notify" | "release-interruptible-only" | "release";
            /** @description Default: {"workloads":[],"projects":[]}. */
            exempt?: {
                /** @description Default: []. */
                workloads?: ("training" | "inference" | "batch")[];
                /** @description Default: []. */
                projects?: string[];
            };
        };
        /** @description An idle policy */
        IdlePolicy: {
            /** @default 5 */
            belowPercent: number;
            /** @default 30 */
            forMinutes: number;
            /** @enum {string} */
            action: "notify" | "release-interruptible-only" | "release";
            /**
             * @default {
             *       "workloads": [],
             *       "projects": []
             *     }
             */
            exempt: {
                /** @default [] */
                workloads: ("training" | "inference" | "batch")[];
                /** @default [] */
                projects: string[];
            };
        };
        IdlePolicies: {
            admin: components["schemas"]["IdlePolicy"] | null;
            tenant: components["schemas"]["IdlePolicy"] | null;
            /** @description The stricter of the two, field by field; null: no policy, leases are never acted on */
            effective: components["schemas"]["IdlePolicy"] | null;
        };
        SpendAnomalySettingsRequest: {
            /**
             * @description Default: "medium".
             * @enum {string}
             */
            sensitivity?: "low" | "medium" | "high";
            /** @description Default: true. */
            enabled?: boolean;
            /** @description The project these settings are for; absent: the tenant's own */
            project?: string;
        };
        /** @description Sensitivity (low, medium, high: a lower line the higher it is) and whether anomalies are watched at all */
        SpendAnomalySettings: {
            /**
             * @default medium
             * @enum {string}
             */
            sensitivity: "low" | "medium" | "high";
            /** @default true */
            enabled: boolean;
        };
        SpendAnomalySettingsView: {
            tenant: components["schemas"]["SpendAnomalySettings"];
            projects: {
                [key: string]: components["schemas"]["SpendAnomalySettings"];
            };
        };
        WarmPoolRequest: {
            region: string;
            /** @description An availability zone of the region; omit it for any zone the fleet has subnets in */
            zone?: string;
            instanceType: string;
            /** @description Stopped machines kept ready (0 keeps the pool defined but empty) */
            size: number;
            /** @description The GPU image the machines are built from: `name` follows its current version (a promotion or rollback rebuilds the pool), `name:version` pins one */
            image: string;
            /** @description Container images pulled while each machine initialises, so tasks start without a pull; at most 256 characters space-separated. Default: []. */
            prePull?: string[];
        };
        WarmPool: {
            name: string;
            region: string;
            /** @description Absent: any zone the fleet has subnets in */
            zone?: string;
            instanceType: string;
            /** @description Stopped machines the filler keeps ready */
            size: number;
            /** @description `name` (follows its current version) or `name:version` */
            image: string;
            prePull: string[];
            /** @description The machines the pool holds now, by state */
            machines: {
                /** @description Launched, initialising */
                launching: number;
                /** @description Signalled ready, being stopped */
                stopping: number;
                /** @description Stopped, ready for a lease */
                ready: number;
            };
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        QuotaRequest: {
            maxGpus: number;
            maxHourlyUsd: number;
            maxGpusByMode?: {
                "on-demand"?: number;
                reserved?: number;
                spot?: number;
            };
            /** @description Default: 1. */
            weight?: number;
        };
        TenantQuota: {
            tenantId: string;
            quota: {
                maxGpus: number;
                maxHourlyUsd: number;
                maxGpusByMode?: {
                    "on-demand"?: number;
                    reserved?: number;
                    spot?: number;
                };
                /** @default 1 */
                weight: number;
            };
            /** @description True when no admin set a quota for the tenant: the configured default applies */
            isDefault: boolean;
            /** @description What the tenant runs now, as its quota counts it */
            usage: {
                /** @description GPUs admitted and not released */
                gpus: number;
                /** @description Sum of the hourly prices of what was admitted */
                hourlyUsd: number;
                /** @description GPUs by rental mode */
                gpusByMode: {
                    [key: string]: number;
                };
            };
        };
        TenantLimitsRequest: {
            /** @description Default: 20. */
            requestsPerSecond?: number;
            /** @description Default: 20. */
            maxScalingGroups?: number;
            /** @description Default: 100. */
            maxWaitingLeases?: number;
        };
        TenantLimits: {
            tenantId: string;
            limits: {
                /** @default 20 */
                requestsPerSecond: number;
                /** @default 20 */
                maxScalingGroups: number;
                /** @default 100 */
                maxWaitingLeases: number;
            };
            /** @description True when no admin set limits for the tenant: the defaults apply */
            isDefault: boolean;
        };
        Error: {
            error: {
                /** @description Stable machine-readable code, e.g. VALIDATION_FAILED */
                code: string;
                /** @description What is wrong and how to fix it */
                message: string;
                details: {
                    path: string;
                    message: string;
                }[];
            };
        };
        /** @description Sent by API Gateway, not by the API: `{"message": "Unauthorized"}` (401) when the bearer token is missing or invalid, `{"message": "Not Found"}` (404) for a path no route matches */
        GatewayError: {
            message: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Up */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                    };
                };
            };
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OpenAPI 3.1 */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        openapi: string;
                        info: Record<string, never>;
                        paths: Record<string, never>;
                        components: Record<string, never>;
                    };
                };
            };
        };
    };
    listLeases: {
        parameters: {
            query?: {
                /** @description Page size; default: 25 */
                limit?: number;
                /** @description nextCursor of the previous page */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of leases */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        leases: components["schemas"]["Lease"][];
                        nextCursor?: string;
                    };
                };
            };
            /** @description VALIDATION_FAILED or INVALID_CURSOR */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description The token has no tenant claim (TENANT_CLAIM_MISSING) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createLease: {
        parameters: {
            query?: never;
            header: {
                /** @description Reuse on retry: the same key returns the first lease and launches nothing again */
                "Idempotency-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateLeaseRequest"];
            };
        };
        responses: {
            /** @description Accepted; provisioning is queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        leaseId: string;
                        /** @enum {string} */
                        status: "PENDING";
                    };
                };
            };
            /** @description VALIDATION_FAILED, INVALID_JSON, BODY_REQUIRED, IDEMPOTENCY_KEY_REQUIRED, UNSUPPORTED_INSTANCE_TYPE, UNKNOWN_REGION, UNKNOWN_GPU_MODEL, UNKNOWN_IMAGE, MAX_PRICE_BELOW_EVERY_POOL, TASK_TOO_LARGE (the lease with its task would pass the stored size limit; the message gives both), or for a task deadline DEADLINE_IN_PAST, DEADLINE_BEFORE_WORK, DEADLINE_WITHOUT_TASK or DEADLINE_WITH_ON_DEMAND (details name the field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description BUDGET_EXCEEDED: a block-new-leases budget in the lease’s scope (tenant or project) has reached its limit; details name the budget */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token has no tenant claim (TENANT_CLAIM_MISSING) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description REQUEST_IN_PROGRESS: the same key is still being processed */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IDEMPOTENCY_KEY_REUSED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds; or WAITING_LEASES_CAP_REACHED: the tenant has maxWaitingLeases leases waiting to start, PENDING or QUEUED (GET /v1/limits); the message gives the cap and how many wait; nothing is written. Retry after Retry-After seconds (they clear as the leases start or end), or release one */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getLease: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The lease id POST /v1/leases answered with */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The lease */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Lease"];
                };
            };
            /** @description INVALID_LEASE_ID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description The token has no tenant claim (TENANT_CLAIM_MISSING) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description LEASE_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    releaseLease: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The lease id POST /v1/leases answered with */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Releasing (or already ended) */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Lease"];
                };
            };
            /** @description INVALID_LEASE_ID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description The token has no tenant claim (TENANT_CLAIM_MISSING) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description LEASE_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getLeaseMetrics: {
        parameters: {
            query?: {
                /** @description Start; default: one hour before to */
                from?: string;
                /** @description End; default: now */
                to?: string;
                /** @description Seconds per datapoint; at most 1,440 datapoints per series */
                period?: "60" | "300" | "3600";
            };
            header?: never;
            path: {
                /** @description The lease id POST /v1/leases answered with */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Series per instance and GPU */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LeaseGpuMetrics"];
                };
            };
            /** @description INVALID_LEASE_ID or VALIDATION_FAILED */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description The token has no tenant claim (TENANT_CLAIM_MISSING) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description LEASE_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getLeaseLogs: {
        parameters: {
            query?: {
                /** @description The attempt to read; default: the latest */
                attempt?: number;
                /** @description Only output written at or after this instant (ignored with nextToken) */
                since?: string;
                /** @description Events per stream (stdout, stderr) in this page */
                limit?: number;
                /** @description nextToken of the previous page */
                nextToken?: string;
            };
            header?: never;
            path: {
                /** @description The lease id POST /v1/leases answered with */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LeaseLogs"];
                };
            };
            /** @description INVALID_LEASE_ID, VALIDATION_FAILED or INVALID_NEXT_TOKEN */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description The token has no tenant claim (TENANT_CLAIM_MISSING) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description LEASE_NOT_FOUND or TASK_ATTEMPT_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description LEASE_HAS_NO_TASK: the lease runs no task */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    openLeaseSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The lease id POST /v1/leases answered with */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The credentials and how to use them */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LeaseSession"];
                };
            };
            /** @description INVALID_LEASE_ID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description The token has no tenant claim (TENANT_CLAIM_MISSING) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description LEASE_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description LEASE_NOT_RUNNING: the lease has no running instances */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getUsage: {
        parameters: {
            query?: {
                /** @description Start (inclusive), a date or date-time; default: start of this month (UTC) */
                from?: string;
                /** @description End (exclusive), a date or date-time; default: now */
                to?: string;
                groupBy?: "mode" | "lease" | "instanceType" | "project" | "day" | "dimension";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Usage summary */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Usage"];
                };
            };
            /** @description VALIDATION_FAILED */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description The token has no tenant claim (TENANT_CLAIM_MISSING) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    exportUsage: {
        parameters: {
            query?: {
                /** @description Start (inclusive), a date or date-time; default: start of this month (UTC) */
                from?: string;
                /** @description End (exclusive), a date or date-time; default: now */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description lease_id,workload,mode,instance_type,gpus,started_at,ended_at,project */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            /** @description VALIDATION_FAILED: a bad from or to, or a range longer than 93 days (details name the field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description The token has no tenant claim (TENANT_CLAIM_MISSING) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDemandProfile: {
        parameters: {
            query?: {
                /** @description Start (inclusive), a date or date-time; default: start of this month (UTC) */
                from?: string;
                /** @description End (exclusive), a date or date-time; default: now */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description days[]: {day, gpuHours, avgConcurrentGpus, peakConcurrentGpus, waitSeconds: {leases, p50, p95}, byWorkload, byMode, tasks, queue, gpuUtilization, idleGpuHours, idleMicroUsd, idleShare}; tasks: {runSeconds, waitSeconds: {tasks, p50, p95}, byWorkload} (seconds the tasks ran that day, and the wait from lease request to task start of the leases requested that day); queue: waits for admission that day (QueueFigures: wait p50/p95 by workload of the leases requested that day, time waiting on the tenant quota, GPU-hours waiting on the account EC2 quota by region and family); idle figures from the waste ledger (idleShare: idle GPU-hours over GPU-hours, null on a day no GPU ran); gpuUtilization (the range and each day) from the GPU telemetry, gpuUtilizationNote says how it is computed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        from: string;
                        /** Format: date-time */
                        to: string;
                        /** @description The average of every per-minute utilization sample of every GPU (each GPU-minute weighs the same); percent is null and telemetry "none" when no GPU sent a sample: no telemetry, never 0% */
                        gpuUtilization: {
                            percent: number | null;
                            /** @enum {string} */
                            telemetry: "complete" | "partial" | "none";
                            /** @description GPU-hours the samples cover */
                            measuredGpuHours: number;
                            /** @description GPUs that ran and sent no sample */
                            gpusWithoutTelemetry: number;
                        };
                        gpuUtilizationNote: string;
                        days: Record<string, never>[];
                    };
                };
            };
            /** @description VALIDATION_FAILED: a bad from or to, or a range longer than 93 days (details name the field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description The token has no tenant claim (TENANT_CLAIM_MISSING) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listBudgets: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Budgets */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        budgets: components["schemas"]["Budget"][];
                    };
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description The token has no tenant claim (TENANT_CLAIM_MISSING) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getBudget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The budget */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Budget"];
                };
            };
            /** @description INVALID_BUDGET_NAME */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description The token has no tenant claim (TENANT_CLAIM_MISSING) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description BUDGET_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putBudget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PutBudgetRequest"];
            };
        };
        responses: {
            /** @description Replaced; `rearmed` lists the alerts the change armed again */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Budget"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Budget"];
                };
            };
            /** @description VALIDATION_FAILED, INVALID_BUDGET_NAME, INVALID_JSON or BODY_REQUIRED */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description The token has no tenant claim (TENANT_CLAIM_MISSING) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description BUDGET_CHANGED: changed concurrently; retry */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteBudget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description INVALID_BUDGET_NAME */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description The token has no tenant claim (TENANT_CLAIM_MISSING) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description BUDGET_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAllBudgets: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Budgets of all tenants */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        budgets: components["schemas"]["Budget"][];
                    };
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description ADMIN_REQUIRED or TENANT_CLAIM_MISSING */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listScalingGroups: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Groups */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        groups: components["schemas"]["ScalingGroupSummary"][];
                    };
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description The token has no tenant claim (TENANT_CLAIM_MISSING) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getScalingGroup: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The group */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScalingGroup"];
                };
            };
            /** @description INVALID_SCALING_GROUP_NAME */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description The token has no tenant claim (TENANT_CLAIM_MISSING) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SCALING_GROUP_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putScalingGroup: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ScalingGroupSpec"];
            };
        };
        responses: {
            /** @description Replaced */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScalingGroup"];
                };
            };
            /** @description Created; members launch at the next evaluation */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScalingGroup"];
                };
            };
            /** @description INVALID_SCALING_GROUP_NAME, VALIDATION_FAILED, UNSUPPORTED_INSTANCE_TYPE, METRIC_NAMESPACE_NOT_OWNED (a custom condition’s namespace is not under gpurent/<tenant>/; details name the field), INVALID_JSON or BODY_REQUIRED */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description The token has no tenant claim (TENANT_CLAIM_MISSING) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SCALING_GROUP_DELETING, or SCALING_GROUP_CAP_REACHED: a new group would pass the tenant’s maxScalingGroups (GET /v1/limits); delete one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteScalingGroup: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; the released leases are terminated and billed like any other */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        name: string;
                        /** @enum {string} */
                        status: "DELETED";
                        released: string[];
                    };
                };
            };
            /** @description INVALID_SCALING_GROUP_NAME */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description The token has no tenant claim (TENANT_CLAIM_MISSING) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SCALING_GROUP_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMonthlyAudit: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The month (UTC) to audit: this month (to date) or an earlier one */
                month: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The audit */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonthlyAudit"];
                };
            };
            /** @description INVALID_MONTH (not yyyy-mm) or MONTH_IN_FUTURE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description The token has no tenant claim (TENANT_CLAIM_MISSING) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMonthlyAuditReport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The month (UTC) to audit: this month (to date) or an earlier one */
                month: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description INVALID_MONTH (not yyyy-mm) or MONTH_IN_FUTURE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description The token has no tenant claim (TENANT_CLAIM_MISSING) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Settings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantSettings"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description The token has no tenant claim (TENANT_CLAIM_MISSING) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TenantSettings"];
            };
        };
        responses: {
            /** @description The settings now in force */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantSettings"];
                };
            };
            /** @description VALIDATION_FAILED (a lifetime outside 1-43200 minutes), INVALID_JSON or BODY_REQUIRED */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description The token has no tenant claim (TENANT_CLAIM_MISSING) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPools: {
        parameters: {
            query?: {
                /** @description Whole GPUs (1-8), or 0.125, 0.25 or 0.5 of one GPU */
                gpus?: 0.125 | 0.25 | 0.5 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;
                gpuModel?: string;
                instanceType?: string;
                workload?: "training" | "inference" | "batch";
                /** @description Comma-separated */
                regions?: string;
                dataRegion?: string;
                dataGb?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Pools; spotPriceNote says how spot is priced here */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        sample: Record<string, never>;
                        spotPriceNote: string;
                        pools: components["schemas"]["Pool"][];
                    };
                };
            };
            /** @description VALIDATION_FAILED, UNKNOWN_REGION, UNKNOWN_GPU_MODEL or UNSUPPORTED_INSTANCE_TYPE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description ADMIN_REQUIRED: the token is not in the admin group */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listReservations: {
        parameters: {
            query?: {
                /** @description Page size; default: 25 */
                limit?: number;
                /** @description nextCursor of the previous page */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of commitments */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        reservations: components["schemas"]["Reservation"][];
                        nextCursor?: string;
                    };
                };
            };
            /** @description VALIDATION_FAILED or INVALID_CURSOR */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description ADMIN_REQUIRED: the token is not in the admin group */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReservation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The commitment */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Reservation"];
                };
            };
            /** @description INVALID_RESERVATION_ID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description ADMIN_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RESERVATION_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putReservation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReservationRequest"];
            };
        };
        responses: {
            /** @description The commitment */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Reservation"];
                };
            };
            /** @description VALIDATION_FAILED, INVALID_JSON, BODY_REQUIRED, INVALID_RESERVATION_ID, UNKNOWN_REGION or INVALID_RESERVATION */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description ADMIN_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RESERVATION_IN_USE: fewer GPUs than leases hold */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteReservation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description INVALID_RESERVATION_ID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description ADMIN_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RESERVATION_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RESERVATION_IN_USE */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putImageVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
                version: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ImageVersionRequest"];
            };
        };
        responses: {
            /** @description The version and its launch template versions */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImageVersion"];
                };
            };
            /** @description VALIDATION_FAILED, INVALID_JSON, BODY_REQUIRED, INVALID_IMAGE_NAME or UNKNOWN_REGION */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description ADMIN_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IMAGE_VERSION_EXISTS: the version exists with other AMIs */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    promoteImageVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
                version: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The image now */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImageChange"];
                };
            };
            /** @description INVALID_IMAGE_NAME */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description ADMIN_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IMAGE_VERSION_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rollbackImage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The image now */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImageChange"];
                };
            };
            /** @description INVALID_IMAGE_NAME */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description ADMIN_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOTHING_TO_ROLL_BACK */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listImages: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Images, including those with versions registered but none promoted yet */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        images: components["schemas"]["ImageSummary"][];
                    };
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description ADMIN_REQUIRED: the token is not in the admin group */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getImage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The image: ImageSummary with history and the current version in full */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImageSummary"] & {
                        history: string[];
                        currentVersion?: components["schemas"]["ImageVersion"];
                    };
                };
            };
            /** @description INVALID_IMAGE_NAME */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description ADMIN_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IMAGE_NOT_FOUND: no version of it is registered */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getIdlePolicy: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The admin and tenant policies and the one in force */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdlePolicies"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description The token has no tenant claim (TENANT_CLAIM_MISSING) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putIdlePolicy: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["IdlePolicyRequest"];
            };
        };
        responses: {
            /** @description The admin and tenant policies and the one in force */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdlePolicies"];
                };
            };
            /** @description VALIDATION_FAILED (belowPercent outside 0-100, forMinutes outside 10-1440 or not whole, an unknown action, workload or field), INVALID_JSON or BODY_REQUIRED */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description The token has no tenant claim (TENANT_CLAIM_MISSING) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IDLE_POLICY_LOOSER_THAN_ADMIN: details name each field looser than the admin's */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteIdlePolicy: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description The token has no tenant claim (TENANT_CLAIM_MISSING) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IDLE_POLICY_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminIdlePolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The admin and tenant policies and the one in force */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdlePolicies"];
                };
            };
            /** @description INVALID_TENANT_ID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description ADMIN_REQUIRED: the token is not in the admin group */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putAdminIdlePolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["IdlePolicyRequest"];
            };
        };
        responses: {
            /** @description The admin and tenant policies and the one in force */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdlePolicies"];
                };
            };
            /** @description VALIDATION_FAILED (belowPercent outside 0-100, forMinutes outside 10-1440 or not whole, an unknown action, workload or field), INVALID_JSON or BODY_REQUIRED, INVALID_TENANT_ID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description ADMIN_REQUIRED: the token is not in the admin group */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteAdminIdlePolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description INVALID_TENANT_ID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description ADMIN_REQUIRED: the token is not in the admin group */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IDLE_POLICY_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSpendAnomalySettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tenant's own settings and each project's that has its own */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpendAnomalySettingsView"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description The token has no tenant claim (TENANT_CLAIM_MISSING) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putSpendAnomalySettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SpendAnomalySettingsRequest"];
            };
        };
        responses: {
            /** @description The tenant's own settings and each project's that has its own */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpendAnomalySettingsView"];
                };
            };
            /** @description VALIDATION_FAILED (an unknown sensitivity, a non-boolean enabled, a bad project label, an unknown field), INVALID_JSON or BODY_REQUIRED */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description The token has no tenant claim (TENANT_CLAIM_MISSING) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWarmPools: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The warm pools */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        warmPools: components["schemas"]["WarmPool"][];
                    };
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description ADMIN_REQUIRED: the token is not in the admin group */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWarmPool: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The pool */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WarmPool"];
                };
            };
            /** @description INVALID_WARM_POOL_NAME */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description ADMIN_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description WARM_POOL_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putWarmPool: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WarmPoolRequest"];
            };
        };
        responses: {
            /** @description The pool, redefined */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WarmPool"];
                };
            };
            /** @description The pool, created */
            201: {
                headers: {
                    /** @description The pool’s URL */
                    location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WarmPool"];
                };
            };
            /** @description VALIDATION_FAILED, INVALID_JSON, BODY_REQUIRED, INVALID_WARM_POOL_NAME, UNKNOWN_REGION, UNKNOWN_INSTANCE_TYPE, UNKNOWN_ZONE, INVALID_IMAGE, UNKNOWN_IMAGE_VERSION or PREPULL_TOO_LONG */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description ADMIN_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteWarmPool: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description INVALID_WARM_POOL_NAME */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description ADMIN_REQUIRED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description WARM_POOL_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getQuota: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The quota and its use */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantQuota"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description The token has no tenant claim (TENANT_CLAIM_MISSING) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTenantQuota: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The tenant the quota is for */
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The quota and its use */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantQuota"];
                };
            };
            /** @description INVALID_TENANT_ID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description ADMIN_REQUIRED: the token is not in the admin group */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putTenantQuota: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The tenant the quota is for */
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["QuotaRequest"];
            };
        };
        responses: {
            /** @description The quota now in force and its use */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantQuota"];
                };
            };
            /** @description VALIDATION_FAILED, INVALID_JSON, BODY_REQUIRED or INVALID_TENANT_ID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description ADMIN_REQUIRED: the token is not in the admin group */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getLimits: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The limits in force */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantLimits"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description The token has no tenant claim (TENANT_CLAIM_MISSING) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTenantLimits: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The tenant the limits are for */
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The limits in force */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantLimits"];
                };
            };
            /** @description INVALID_TENANT_ID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description ADMIN_REQUIRED: the token is not in the admin group */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putTenantLimits: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The tenant the limits are for */
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TenantLimitsRequest"];
            };
        };
        responses: {
            /** @description The limits now in force */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantLimits"];
                };
            };
            /** @description VALIDATION_FAILED, INVALID_JSON, BODY_REQUIRED or INVALID_TENANT_ID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer token (answered by API Gateway) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description ADMIN_REQUIRED: the token is not in the admin group */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: the tenant has made its requestsPerSecond this second (GET /v1/limits); retry after Retry-After seconds */
            429: {
                headers: {
                    /** @description Seconds until the next window */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
