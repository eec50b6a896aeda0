// SPDX-License-Identifier: GPL-2.0-only
/*
 * Regulators that are on at boot and that no consumer uses.
 *
 * Their hardware is a flag that starts out on, like a rail the bootloader
 * left on.  The regulator core switches such regulators off in its late
 * cleanup: 30 s after late init, or when userspace has booted if init
 * reports it (user_booted_reported), and only those registered by the
 * 30 s.  The user_booted tests load this module during userspace boot, as
 * a distribution loads its PMIC driver, and watch
 * /sys/class/regulator/regulator.N/state of "ub-unused";
 * user_booted_supplier registers another one, "ub-late", when it binds.
 * "ub-agent" starts off; writing Y to the parameter agent_on turns it on
 * behind the regulator core's back, as firmware or a co-processor may:
 * stock's cleanup never switches off a rail that was off at its 30 s.
 * "ub-cycled" starts on; writing Y to cycle has a consumer enable and
 * disable it (the core switches it off), and writing Y to cycled_on then
 * turns it on behind the core's back: stock, whose cleanup was done with
 * it at its 30 s, leaves it on.
 */
#include <linux/err.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/kstrtox.h>
#include <linux/regulator/consumer.h>
#include <linux/regulator/driver.h>
#include <linux/regulator/machine.h>
#include <linux/smp.h>

#include "user_booted_regulator.h"

struct ub_unused {
	bool own;	/* the hardware, unless another agent shares it */
	bool *on;	/* &own, or the module parameter an agent writes */
	struct regulator_desc desc;
	struct regulator_init_data init_data;
};

static struct platform_device *ub_unused_pdev;

static int ub_unused_enable(struct regulator_dev *rdev)
{
	struct ub_unused *u = rdev_get_drvdata(rdev);

	WRITE_ONCE(*u->on, true);
	return 0;
}

/* Where the late cleanup ran: on a housekeeping CPU, as stock's timer. */
static int disabled_on_cpu = -1;
module_param(disabled_on_cpu, int, 0444);
MODULE_PARM_DESC(disabled_on_cpu, "the CPU that last switched one off");

static int ub_unused_disable(struct regulator_dev *rdev)
{
	struct ub_unused *u = rdev_get_drvdata(rdev);

	WRITE_ONCE(*u->on, false);
	WRITE_ONCE(disabled_on_cpu, raw_smp_processor_id());
	return 0;
}

static int ub_unused_is_enabled(struct regulator_dev *rdev)
{
	struct ub_unused *u = rdev_get_drvdata(rdev);

	return READ_ONCE(*u->on);
}

static const struct regulator_ops ub_unused_ops = {
	.enable = ub_unused_enable,
	.disable = ub_unused_disable,
	.is_enabled = ub_unused_is_enabled,
};

/* The hardware of "ub-agent", which another agent may switch on. */
static bool agent_on;
module_param(agent_on, bool, 0644);
MODULE_PARM_DESC(agent_on, "ub-agent is on; Y: another agent turns it on");

/* The hardware of "ub-cycled", on at boot. */
static bool cycled_on = true;
module_param(cycled_on, bool, 0644);
MODULE_PARM_DESC(cycled_on, "ub-cycled is on; Y: another agent turns it on");

/*
 * Neither always_on nor boot_on: the late cleanup may switch it off.  Its
 * hardware is @shared, or its own flag, on at boot.
 */
static struct regulator_dev *ub_register(struct device *dev, const char *name,
					 bool *shared)
{
	struct regulator_config config = { .dev = dev };
	struct ub_unused *u;

	u = devm_kzalloc(dev, sizeof(*u), GFP_KERNEL);
	if (!u)
		return ERR_PTR(-ENOMEM);
	u->own = true;
	u->on = shared ?: &u->own;
	u->desc.name = name;
	u->desc.type = REGULATOR_VOLTAGE;
	u->desc.ops = &ub_unused_ops;
	u->desc.owner = THIS_MODULE;
	u->init_data.constraints.name = name;
	u->init_data.constraints.valid_ops_mask = REGULATOR_CHANGE_STATUS;
	config.init_data = &u->init_data;
	config.driver_data = u;
	return devm_regulator_register(dev, &u->desc, &config);
}

/**
 * ub_unused_register - register a regulator that is on and unused
 * @dev: the device that provides it; the regulator goes with its driver
 * @name: the regulator's name
 *
 * Return: the regulator, or an ERR_PTR().
 */
struct regulator_dev *ub_unused_register(struct device *dev, const char *name)
{
	return ub_register(dev, name, NULL);
}
EXPORT_SYMBOL_GPL(ub_unused_register);

static int ub_unused_probe(struct platform_device *pdev)
{
	struct regulator_dev *rdev;

	rdev = ub_unused_register(&pdev->dev, "ub-unused");
	if (IS_ERR(rdev))
		return PTR_ERR(rdev);
	rdev = ub_register(&pdev->dev, "ub-agent", &agent_on);
	if (IS_ERR(rdev))
		return PTR_ERR(rdev);
	return PTR_ERR_OR_ZERO(ub_register(&pdev->dev, "ub-cycled", &cycled_on));
}

/* A consumer that enables and disables ub-cycled, once per write of Y. */
static int cycle_set(const char *val, const struct kernel_param *kp)
{
	struct regulator *r;
	bool on;
	int ret = kstrtobool(val, &on);

	if (ret || !on)
		return ret;
	if (!ub_unused_pdev)
		return -ENODEV;
	r = regulator_get(&ub_unused_pdev->dev, "ub-cycled");
	if (IS_ERR(r))
		return PTR_ERR(r);
	ret = regulator_enable(r);
	if (!ret)
		ret = regulator_disable(r);
	regulator_put(r);
	return ret;
}

static const struct kernel_param_ops cycle_ops = {
	.set = cycle_set,
};
module_param_cb(cycle, &cycle_ops, NULL, 0200);
MODULE_PARM_DESC(cycle, "Y: a consumer enables and disables ub-cycled");

static struct platform_driver ub_unused_driver = {
	.probe = ub_unused_probe,
	.driver = {
		.name = "ub-unused-regulator",
	},
};

static int __init ub_unused_init(void)
{
	int ret;

	/*
	 * Board code without device tree says its constraints are complete;
	 * otherwise the late cleanup only warns and leaves the regulators on.
	 */
	regulator_has_full_constraints();

	ret = platform_driver_register(&ub_unused_driver);
	if (ret)
		return ret;
	ub_unused_pdev = platform_device_register_simple("ub-unused-regulator",
							 PLATFORM_DEVID_NONE, NULL, 0);
	if (IS_ERR(ub_unused_pdev)) {
		platform_driver_unregister(&ub_unused_driver);
		return PTR_ERR(ub_unused_pdev);
	}
	return 0;
}
module_init(ub_unused_init);

static void __exit ub_unused_exit(void)
{
	platform_device_unregister(ub_unused_pdev);
	platform_driver_unregister(&ub_unused_driver);
}
module_exit(ub_unused_exit);

MODULE_DESCRIPTION("user_booted sample: unused regulators that are on at boot");
MODULE_LICENSE("GPL");
