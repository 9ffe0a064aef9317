# What ronin_puppet's Windows bootstrap applies: puppet apply -e 'include roles_profiles::roles::win2022642009azure'
include roles_profiles::roles::win2022642009azure
