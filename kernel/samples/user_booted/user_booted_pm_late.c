// SPDX-License-Identifier: GPL-2.0-only
/*
 * A clock and power domain provider that userspace loads.
 *
 * Registered after late init, "ub-gate-late", its child
 * "ub-gate-late-child" (CLK_OPS_PARENT_ENABLE: the clk core enables the
 * parent around operations on the child) and "ub-pd-late" are on and
 * unused.  A stock kernel never switches them off: its cleanup ran at late
 * init, before they existed.  With user_booted_reported the cleanup runs
 * when userspace has booted, and must leave them alone all the same.
 */
#include <linux/clk-provider.h>
#include <linux/module.h>
#include <linux/pm_domain.h>

#include "user_booted_pm.h"

static struct ub_gate ub_late[] = {
	{ .hw.init = CLK_HW_INIT_NO_PARENT("ub-gate-late", &ub_gate_ops, 0), .on = true },
	{ .hw.init = CLK_HW_INIT("ub-gate-late-child", "ub-gate-late", &ub_gate_ops,
				 CLK_OPS_PARENT_ENABLE), .on = true },
};

static int ub_pd_late_power_off(struct generic_pm_domain *pd)
{
	pr_info("%s: powering off\n", pd->name);
	return 0;
}

static struct generic_pm_domain ub_pd_late = {
	.name = "ub-pd-late",
	.power_off = ub_pd_late_power_off,
	.flags = UB_PD_FLAGS,
};

static int __init ub_pm_late_init(void)
{
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(ub_late); i++) {
		ret = clk_hw_register(NULL, &ub_late[i].hw);
		if (ret)
			goto err;
	}
	ret = pm_genpd_init(&ub_pd_late, NULL, false);
	if (!ret)
		return 0;
err:
	while (--i >= 0)
		clk_hw_unregister(&ub_late[i].hw);
	return ret;
}
module_init(ub_pm_late_init);

static void __exit ub_pm_late_exit(void)
{
	int i;

	pm_genpd_remove(&ub_pd_late);
	for (i = ARRAY_SIZE(ub_late) - 1; i >= 0; i--)
		clk_hw_unregister(&ub_late[i].hw);
}
module_exit(ub_pm_late_exit);

MODULE_DESCRIPTION("user_booted sample: a clock and power domain provider registered after late init");
MODULE_LICENSE("GPL");
