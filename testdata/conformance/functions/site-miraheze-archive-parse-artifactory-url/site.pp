notify { 'call 1: release artifact': message => archive::parse_artifactory_url('https://repo.example.com/artifactory/libs-release-local/com/example/app/1.2.3/app-1.2.3.jar') }
notify { 'call 2: snapshot with classifier': message => archive::parse_artifactory_url('https://repo.example.com/artifactory/libs-snapshot/org/acme/tool/2.0-SNAPSHOT/tool-2.0-20210101.123456-7-bin.tar.gz') }
notify { 'call 3: not an artifactory URL gives undef': message => String(archive::parse_artifactory_url('https://example.com/files/thing.zip')) }
