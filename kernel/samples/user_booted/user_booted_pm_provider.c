// SPDX-License-Identifier: GPL-2.0-only
/*
 * Clocks and power domains that firmware left on.
 *
 * Built in, this binds the platform device "ub-pm-provider" before late
 * init, as a SoC's clock controller and power domain driver do, with
 * runtime PM enabled (the clk core resumes it around its cleanup), and
 * registers two gate clocks and two power domains whose "hardware" (a
 * flag) starts out on:
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
#include <linux/platform_device.h>
#include <linux/pm_domain.h>
#include <linux/pm_runtime.h>

#include "user_booted_pm.h"

static int ub_gate_enable(struct clk_hw *hw)
{
	pr_info("%s: enabling\n", clk_hw_get_name(hw));
	WRITE_ONCE(to_ub_gate(hw)->on, true);
	return 0;
}

static void ub_gate_disable(struct clk_hw *hw)
{
	pr_info("%s: disabling\n", clk_hw_get_name(hw));
	WRITE_ONCE(to_ub_gate(hw)->on, false);
}

static int ub_gate_is_enabled(struct clk_hw *hw)
{
	return READ_ONCE(to_ub_gate(hw)->on);
}

const struct clk_ops ub_gate_ops = {
	.enable = ub_gate_enable,
	.disable = ub_gate_disable,
	.is_enabled = ub_gate_is_enabled,
};
EXPORT_SYMBOL_GPL(ub_gate_ops);

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

/* The domains that genpd_power_off_unused() handles: not held by stay_on. */
#define UB_PD(_name) {					\
	.name = _name,					\
	.power_on = ub_pd_power_on,			\
	.power_off = ub_pd_power_off,			\
	.flags = UB_PD_FLAGS,				\
}

struct generic_pm_domain ub_pd_claimed = UB_PD("ub-pd-claimed");
EXPORT_SYMBOL_GPL(ub_pd_claimed);
static struct generic_pm_domain ub_pd_unclaimed = UB_PD("ub-pd-unclaimed");

static int ub_pm_provider_probe(struct platform_device *pdev)
{
	const char *name;
	int i, ret;

	ret = devm_pm_runtime_enable(&pdev->dev);
	if (ret)
		return ret;
	for (i = 0; i < ARRAY_SIZE(ub_gates); i++) {
		/* The name is the init data's: read it before registering. */
		name = ub_gates[i].hw.init->name;
		ret = devm_clk_hw_register(&pdev->dev, &ub_gates[i].hw);
		if (!ret)
			ret = devm_clk_hw_register_clkdev(&pdev->dev, &ub_gates[i].hw,
							  name, "ub-pm-consumer");
		if (ret)
			return ret;
	}
	/* On, as firmware left them; no governor, no devices yet. */
	ret = pm_genpd_init(&ub_pd_claimed, NULL, false);
	if (!ret)
		ret = pm_genpd_init(&ub_pd_unclaimed, NULL, false);
	return ret;
}

static int ub_pm_provider_runtime_resume(struct device *dev)
{
	dev_dbg(dev, "runtime resume\n");
	return 0;
}

static int ub_pm_provider_runtime_suspend(struct device *dev)
{
	dev_dbg(dev, "runtime suspend\n");
	return 0;
}

static const struct dev_pm_ops ub_pm_provider_pm_ops = {
	RUNTIME_PM_OPS(ub_pm_provider_runtime_suspend, ub_pm_provider_runtime_resume, NULL)
};

static struct platform_driver ub_pm_provider_driver = {
	.probe = ub_pm_provider_probe,
	.driver = {
		.name = "ub-pm-provider",
		.pm = pm_ptr(&ub_pm_provider_pm_ops),
		.suppress_bind_attrs = true,
	},
};

static int __init ub_pm_provider_init(void)
{
	struct platform_device *pdev;
	int ret;

	ret = platform_driver_register(&ub_pm_provider_driver);
	if (ret)
		return ret;
	pdev = platform_device_register_simple("ub-pm-provider", PLATFORM_DEVID_NONE, NULL, 0);
	if (IS_ERR(pdev)) {
		platform_driver_unregister(&ub_pm_provider_driver);
		return PTR_ERR(pdev);
	}
	return 0;
}

/* Built in only: bound before late init, never unbound. */
device_initcall(ub_pm_provider_init);
