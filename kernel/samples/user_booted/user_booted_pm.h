/* SPDX-License-Identifier: GPL-2.0-only */
/* What user_booted_pm_provider lends user_booted_pm_consumer. */
#ifndef _USER_BOOTED_PM_H
#define _USER_BOOTED_PM_H

#include <linux/pm_domain.h>

/* "ub-pd-claimed": the power domain the consumer module puts a device in. */
extern struct generic_pm_domain ub_pd_claimed;

#endif
