notify { "env=${environment}": }
notify { "fact-env=[${facts['environment']}]": }
