/* SPDX-License-Identifier: GPL-2.0-only */
/* What user_booted_pm_provider lends its consumer and the late provider. */
#ifndef _USER_BOOTED_PM_H
#define _USER_BOOTED_PM_H

#include <linux/clk-provider.h>
#include <linux/pm_domain.h>

/* A gate clock whose "hardware" is a flag; serialised by the clk core. */
struct ub_gate {
	struct clk_hw hw;
	bool on;
};

#define to_ub_gate(_hw) container_of(_hw, struct ub_gate, hw)

extern const struct clk_ops ub_gate_ops;

/* "ub-pd-claimed": the power domain the consumer module puts a device in. */
extern struct generic_pm_domain ub_pd_claimed;

/*
 * With device tree, genpd holds a domain that is on at registration on
 * until its provider's sync_state() (stay_on); the samples are the domains
 * it does not hold, which genpd_power_off_unused() switches off.
 */
#ifdef GENPD_FLAG_NO_STAY_ON
#define UB_PD_FLAGS GENPD_FLAG_NO_STAY_ON
#else
#define UB_PD_FLAGS 0
#endif

#endif
