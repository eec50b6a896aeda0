// SPDX-License-Identifier: GPL-2.0-only
/*
 * Clocks and power domains that firmware left on.
 *
 * Built in, this registers before late init, as a SoC's clock controller
 * and power domain driver do, two gate clocks and two power domains whose
 * "hardware" (a flag) starts out on:
 *
 * - "ub-gate-claimed" and "ub-pd-claimed", which the user_booted_pm_consumer
 *   module claims when userspace loads it, as a distribution loads its
 *   display or USB driver;
 * - "ub-gate-unclaimed" and "ub-pd-unclaimed", which nobody claims.
 *
 * Nothing uses them at late init, so the clk core's and genpd's cleanup
 * switches all four off there, or, with user_booted_reported, when
 * userspace has booted.  Their state is what an admin reads in
 * /sys/kernel/debug/clk/clk_summary and
 * /sys/kernel/debug/pm_genpd/pm_genpd_summary; each switch is logged.
 */
#include <linux/clk-provider.h>
#include <linux/clkdev.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/pm_domain.h>

#include "user_booted_pm.h"

struct ub_gate {
	struct clk_hw hw;
	bool on;		/* the "hardware"; serialised by the clk core */
};

#define to_ub_gate(_hw) container_of(_hw, struct ub_gate, hw)

static int ub_gate_enable(struct clk_hw *hw)
{
	pr_info("%s: enabling\n", clk_hw_get_name(hw));
	to_ub_gate(hw)->on = true;
	return 0;
}

static void ub_gate_disable(struct clk_hw *hw)
{
	pr_info("%s: disabling\n", clk_hw_get_name(hw));
	to_ub_gate(hw)->on = false;
}

static int ub_gate_is_enabled(struct clk_hw *hw)
{
	return to_ub_gate(hw)->on;
}

static const struct clk_ops ub_gate_ops = {
	.enable = ub_gate_enable,
	.disable = ub_gate_disable,
	.is_enabled = ub_gate_is_enabled,
};

static struct ub_gate ub_gates[] = {
	{ .hw.init = CLK_HW_INIT_NO_PARENT("ub-gate-claimed", &ub_gate_ops, 0), .on = true },
	{ .hw.init = CLK_HW_INIT_NO_PARENT("ub-gate-unclaimed", &ub_gate_ops, 0), .on = true },
};

static int ub_pd_power_on(struct generic_pm_domain *pd)
{
	pr_info("%s: powering on\n", pd->name);
	return 0;
}

static int ub_pd_power_off(struct generic_pm_domain *pd)
{
	pr_info("%s: powering off\n", pd->name);
	return 0;
}

struct generic_pm_domain ub_pd_claimed = {
	.name = "ub-pd-claimed",
	.power_on = ub_pd_power_on,
	.power_off = ub_pd_power_off,
};
EXPORT_SYMBOL_GPL(ub_pd_claimed);

static struct generic_pm_domain ub_pd_unclaimed = {
	.name = "ub-pd-unclaimed",
	.power_on = ub_pd_power_on,
	.power_off = ub_pd_power_off,
};

static int __init ub_pm_provider_init(void)
{
	const char *name;
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(ub_gates); i++) {
		/* The name is the init data's: read it before registering. */
		name = ub_gates[i].hw.init->name;
		ret = clk_hw_register(NULL, &ub_gates[i].hw);
		if (!ret)
			ret = clk_hw_register_clkdev(&ub_gates[i].hw, name, NULL);
		if (ret)
			return ret;
	}
	/* On, as firmware left them; no governor, no devices yet. */
	ret = pm_genpd_init(&ub_pd_claimed, NULL, false);
	if (!ret)
		ret = pm_genpd_init(&ub_pd_unclaimed, NULL, false);
	return ret;
}

/* Built in only: registered before late init, never unregistered. */
device_initcall(ub_pm_provider_init);
