package org.sievecrawler.cli;

import picocli.CommandLine.IVersionProvider;

/** The version printed by {@code --version}: the jar manifest's Implementation-Version. */
final class ManifestVersion implements IVersionProvider {
    @Override
    public String[] getVersion() {
        String version = ManifestVersion.class.getPackage().getImplementationVersion();
        return new String[] {"crawler " + (version == null ? "(development build, no jar manifest)" : version),
            "Java " + Runtime.version() + " on " + System.getProperty("os.name") + " "
                    + System.getProperty("os.arch")};
    }
}
