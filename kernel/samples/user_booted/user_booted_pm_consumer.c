// SPDX-License-Identifier: GPL-2.0-only
/*
 * A consumer of a clock and a power domain that firmware left on.
 *
 * Loaded by userspace during its boot, as a distribution loads its display
 * or USB driver: it creates the platform device "ub-pm-consumer", enables
 * the user_booted_pm_provider's "ub-gate-claimed" clock, puts the device in
 * its "ub-pd-claimed" power domain and runtime-resumes it, for as long as
 * it is loaded.  If the clk core or genpd switched them off before, the
 * provider logs them being switched on again: the bounce that a display
 * shows as a flicker.
 */
#include <linux/clk.h>
#include <linux/err.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/pm_domain.h>
#include <linux/pm_runtime.h>

#include "user_booted_pm.h"

static struct platform_device *ub_pm_consumer;
static struct clk *ub_clk;

static int __init ub_pm_consumer_init(void)
{
	int ret;

	ub_pm_consumer = platform_device_register_simple("ub-pm-consumer",
							 PLATFORM_DEVID_NONE, NULL, 0);
	if (IS_ERR(ub_pm_consumer))
		return PTR_ERR(ub_pm_consumer);

	ub_clk = clk_get(&ub_pm_consumer->dev, "ub-gate-claimed");
	ret = PTR_ERR_OR_ZERO(ub_clk);
	if (ret)
		goto err_device;
	ret = clk_prepare_enable(ub_clk);
	if (ret)
		goto err_clk;
	ret = pm_genpd_add_device(&ub_pd_claimed, &ub_pm_consumer->dev);
	if (ret)
		goto err_enable;
	pm_runtime_enable(&ub_pm_consumer->dev);
	ret = pm_runtime_resume_and_get(&ub_pm_consumer->dev);
	if (ret)
		goto err_domain;
	dev_info(&ub_pm_consumer->dev, "claimed ub-gate-claimed and ub-pd-claimed\n");
	return 0;

err_domain:
	pm_runtime_disable(&ub_pm_consumer->dev);
	pm_genpd_remove_device(&ub_pm_consumer->dev);
err_enable:
	clk_disable_unprepare(ub_clk);
err_clk:
	clk_put(ub_clk);
err_device:
	platform_device_unregister(ub_pm_consumer);
	return ret;
}
module_init(ub_pm_consumer_init);

static void __exit ub_pm_consumer_exit(void)
{
	pm_runtime_put_sync(&ub_pm_consumer->dev);
	pm_runtime_disable(&ub_pm_consumer->dev);
	pm_genpd_remove_device(&ub_pm_consumer->dev);
	clk_disable_unprepare(ub_clk);
	clk_put(ub_clk);
	platform_device_unregister(ub_pm_consumer);
}
module_exit(ub_pm_consumer_exit);

MODULE_DESCRIPTION("user_booted sample: a consumer of a clock and a power domain left on at boot");
MODULE_LICENSE("GPL");
